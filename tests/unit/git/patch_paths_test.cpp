// Patch headers whose paths hold blanks, quoted so that libgit2 reads them.
#include "git/patch_paths.h"

#include <catch2/catch.hpp>

using ej::git::quote_blank_header_paths;

TEST_CASE("a diff --git header with blanks in its path is quoted, the rest of the patch kept")
{
  const std::string patch = "diff --git a/o d/r b/o d/r\nnew file mode 100644\n--- /dev/null\n+++ b/o d/r\n"
                            "@@ -0,0 +1 @@\n+diff --git a/u v b/u v\n";
  CHECK(quote_blank_header_paths(patch) ==
        "diff --git \"a/o d/r\" \"b/o d/r\"\nnew file mode 100644\n--- /dev/null\n+++ b/o d/r\n"
        "@@ -0,0 +1 @@\n+diff --git a/u v b/u v\n");
  // A path that itself holds " b/" splits one way only: both halves are as long.
  CHECK(quote_blank_header_paths("diff --git a/x b/y b/x b/y\n") == "diff --git \"a/x b/y\" \"b/x b/y\"\n");
  CHECK(quote_blank_header_paths("diff --git a/t\tab b/t\tab") == "diff --git \"a/t\\tab\" \"b/t\\tab\"");
}

TEST_CASE("headers without blanks, already quoted, or of a rename are left as they are")
{
  for (const std::string patch :
       {"diff --git a/f b/f\n--- a/f\n+++ b/f\n", "diff --git \"a/o d\" \"b/o d\"\n",
        "diff --git a/o d b/p q\n", "", "no patch"}) {
    CHECK(quote_blank_header_paths(patch) == patch);
  }
}
