# Writes OUT, redlab's man page (section 1), from the built executable REDLAB: help2man (HELP2MAN) formats its
# --help and --version, and a COMMANDS section holds each subcommand's own --help (the lesson command's
# subcommands too), so the page says what the binary does and cannot drift from it. Run by cmake -P after every
# link of redlab.
cmake_minimum_required(VERSION 3.24)

# `args`' --help, as roff that shows it as printed: backslashes escaped, a line that begins with a dot or a quote
# kept as text.
function(redlab_help_roff out_var)
  execute_process(COMMAND ${REDLAB} ${ARGN} --help OUTPUT_VARIABLE _help RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "redlab ${ARGN} --help failed (${_rc})")
  endif()
  # The usage line names the build's path to the executable; the page names the command.
  string(REGEX REPLACE "Usage: [^ ]*redlab" "Usage: redlab" _help "${_help}")
  string(REPLACE "\\" "\\e" _help "${_help}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" _help "${_help}")
  set(${out_var} "${_help}" PARENT_SCOPE)
endfunction()

# The subcommands a --help lists (the names in its "Subcommands:" block).
function(redlab_subcommands out_var)
  execute_process(COMMAND ${REDLAB} ${ARGN} --help OUTPUT_VARIABLE _help)
  set(_names "")
  if(_help MATCHES "Subcommands:\n(.*)")
    string(REGEX REPLACE "\n\n.*" "" _block "${CMAKE_MATCH_1}")
    string(REPLACE "\n" ";" _lines "${_block}")
    foreach(_line IN LISTS _lines)
      if(_line MATCHES "^  ([a-z][a-z-]*)")
        list(APPEND _names ${CMAKE_MATCH_1})
      endif()
    endforeach()
  endif()
  set(${out_var} "${_names}" PARENT_SCOPE)
endfunction()

set(_include "[COMMANDS]\nEach command's options, as `redlab COMMAND --help` prints them.\n")
redlab_subcommands(_commands)
foreach(_c IN LISTS _commands)
  redlab_help_roff(_text ${_c})
  string(APPEND _include ".SS redlab ${_c}\n.nf\n${_text}.fi\n")
  redlab_subcommands(_inner ${_c})
  foreach(_s IN LISTS _inner)
    redlab_help_roff(_text ${_c} ${_s})
    string(APPEND _include ".SS redlab ${_c} ${_s}\n.nf\n${_text}.fi\n")
  endforeach()
endforeach()
string(APPEND _include "[FILES]\n.TP\n.I ~/.config/redlab/settings.json\nthe window's scale, language, palette and layout\n"
       ".TP\n.I ~/.local/share/redlab/lessons.json\neach lesson's beat and answers\n"
       ".TP\n.I ~/.cache/redlab/\nkernel files compiled\n"
       ".TP\n.I share/redlab/\nbeside bin/: the lessons, the gallery, the interface's text, the reference figures, and the "
       "kernels' sources and headers that kernel files compile against (or \\fBREDLAB_DATA_DIR\\fR)\n"
       "[SEE ALSO]\n\\fBredlab --version -v\\fR says where redlab's files are and which CUDA libraries it finds.\n")
get_filename_component(_dir ${OUT} DIRECTORY)
file(WRITE ${_dir}/redlab.h2m "${_include}")
execute_process(COMMAND ${HELP2MAN} --no-info --no-discard-stderr --section=1
                        "--name=a lab that makes GPU reductions visible" --include=${_dir}/redlab.h2m --output=${OUT}
                        ${REDLAB}
                RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "help2man failed (${_rc})")
endif()
