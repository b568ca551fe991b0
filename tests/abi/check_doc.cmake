# Fails when docs/api_status.md differs from what tools/gen_abi.py generates now.
# Run with: cmake -DPYTHON=... -DGEN=tools/gen_abi.py -DTABLE=... -DDOC=docs/api_status.md
#                 -DOUT=<scratch file> -P check_doc.cmake
foreach(var PYTHON GEN TABLE DOC OUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_doc.cmake: ${var} is not set")
  endif()
endforeach()

execute_process(
  COMMAND "${PYTHON}" "${GEN}" --table "${TABLE}" --doc "${OUT}"
  RESULT_VARIABLE gen_result)
if(NOT gen_result EQUAL 0)
  message(FATAL_ERROR "gen_abi.py failed (${gen_result})")
endif()

execute_process(
  COMMAND "${CMAKE_COMMAND}" -E compare_files "${OUT}" "${DOC}"
  RESULT_VARIABLE cmp_result)
if(NOT cmp_result EQUAL 0)
  find_program(DIFF diff)
  if(DIFF)
    execute_process(COMMAND "${DIFF}" -u "${DOC}" "${OUT}")
  endif()
  message(FATAL_ERROR
    "${DOC} is out of date with ${TABLE}. Regenerate it with:\n"
    "  python3 tools/gen_abi.py --table client/abi/acl_api.tsv --doc docs/api_status.md")
endif()
