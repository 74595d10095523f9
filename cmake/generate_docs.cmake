# Writes the man page and the three completion scripts with the built ej itself, so that they are
# made from its one command tree. EJ: the binary; OUT_DIR: where they go.
function(ej_write file)
  execute_process(COMMAND "${EJ}" ${ARGN} OUTPUT_FILE "${OUT_DIR}/${file}.tmp" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ej ${ARGN} failed (${rc})")
  endif()
  file(RENAME "${OUT_DIR}/${file}.tmp" "${OUT_DIR}/${file}")
endfunction()
file(MAKE_DIRECTORY "${OUT_DIR}/completions")
ej_write(ej.1 help --man)
ej_write(completions/ej.bash completion bash)
ej_write(completions/_ej completion zsh)
ej_write(completions/ej.fish completion fish)
