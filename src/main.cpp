#include "cli/app.h"
#include "cli/usage.h"
#include "run/signals.h"
#include "util/error.h"
#include "util/strings.h"

#include <iostream>

int main(int argc, char** argv)
{
  CLI::App app{"ej: the experiment journal for performance work", "ej"};
  ej::cli::register_commands_for(app, argc, argv); // only the command typed, where one is
  try {
    app.parse(argc, argv); // runs the chosen command's callback
    return 0;
  } catch (const CLI::Success& success) {
    return app.exit(success); // --help, --version
  } catch (const ej::ExitCode& exit) {
    return exit.code;
  } catch (const CLI::ParseError& error) {
    return ej::cli::report_parse_error(app, error); // the word not understood, and what was meant
  } catch (const ej::UsageError& error) {
    std::cerr << "ej: usage: " << ej::util::visible_controls(error.what()) << "\n";
    return 2;
  } catch (const ej::Error& error) {
    std::cerr << "ej: error: " << ej::util::visible_controls(error.what()) << "\n";
    // An error a signal brought about (a git command it stopped, say) ends as the signal would.
    if (const int signal = ej::run::InterruptGuard::signal_number(); signal != 0) {
      return 128 + signal;
    }
    return 1;
  } catch (const std::exception& error) {
    std::cerr << "ej: error: unexpected failure: " << error.what() << "\n";
    return 1;
  }
}
