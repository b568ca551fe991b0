# toolchain_rewrite_test: the source pass of npud's AscendC toolchain
# (`npud-ascendc-scan source`, what ascendc.cmake runs on every kernel source) on its own,
# without a compiler.
#
#   cmake -DSOURCE_DIR=<repository> -DSCANNER=<npud-ascendc-scan> -DWORK_DIR=<scratch dir>
#         -P rewrite_test.cmake
#
# 1. rewrite/launches.cpp (launches and kernels next to look-alikes in comments, strings,
#    raw strings and #if 0; multi-line, qualified, template and value launches) must give
#    exactly rewrite/launches.expected.cpp and rewrite/launches.expected.kernels, plus the
#    device/host translation units and the warnings for unregistrable kernels;
# 2. malformed launches must fail the pass with the file, line and reason;
# 3. wrong command lines fail with exit status 2 and the usage.

cmake_minimum_required(VERSION 3.16)
foreach(required SOURCE_DIR SCANNER WORK_DIR)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "rewrite_test.cmake: -D${required}=... is required")
  endif()
endforeach()

set(data "${SOURCE_DIR}/tests/toolchain/rewrite")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(failures 0)

function(expect condition_text)
  if(NOT (${ARGN}))
    message(SEND_ERROR "FAILED: ${condition_text}")
    math(EXPR n "${failures} + 1")
    set(failures ${n} PARENT_SCOPE)
  endif()
endfunction()

# --- 1. The well-formed input.
execute_process(
  COMMAND "${SCANNER}" source "--source=${data}/launches.cpp" "--output-dir=${WORK_DIR}"
          --stem=launches --namespace=test_ns
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "FAILED: the rewrite of launches.cpp failed (${rc}):\n${out}${err}")
endif()

file(READ "${WORK_DIR}/launches.rewritten.cpp" rewritten)
string(FIND "${rewritten}" "\n" first_newline)
string(SUBSTRING "${rewritten}" 0 ${first_newline} line_directive)
math(EXPR body_start "${first_newline} + 1")
string(SUBSTRING "${rewritten}" ${body_start} -1 body)
file(READ "${data}/launches.expected.cpp" expected_body)
expect("the rewritten source starts with a #line directive naming the original"
       line_directive STREQUAL "#line 1 \"${data}/launches.cpp\"")
file(WRITE "${WORK_DIR}/launches.actual.cpp" "${body}")
expect("the rewritten source equals rewrite/launches.expected.cpp (see ${WORK_DIR}/launches.actual.cpp)"
       body STREQUAL expected_body)

file(READ "${WORK_DIR}/launches.kernels" kernels)
file(READ "${data}/launches.expected.kernels" expected_kernels)
expect("the kernel report equals rewrite/launches.expected.kernels:\n${kernels}" kernels STREQUAL expected_kernels)

file(READ "${WORK_DIR}/launches.device.cpp" device)
foreach(line
    "#include \"npud_ascendc/device_launch.h\""
    "#include \"${WORK_DIR}/launches.rewritten.cpp\""
    "#include \"npud_kernel_register.h\""
    "NPUD_KERNEL_REGISTER(Enabled);\nNPUD_KERNEL_REGISTER(Plain);\nNPUD_KERNEL_REGISTER(InExternBlock);\nNPUD_KERNEL_REGISTER_AS(CubeKernel, NPUD_CORE_TYPE_CUBE);\nNPUD_KERNEL_REGISTER_AS(MixKernel, NPUD_CORE_TYPE_MIX);\nNPUD_KERNEL_REGISTER(CppLinkage);\n")
  string(FIND "${device}" "${line}" at)
  expect("the device translation unit has '${line}'" NOT at EQUAL -1)
endforeach()
foreach(absent Disabled OnlyDeclared Templated Namespaced InComment InString InRaw)
  string(FIND "${device}" "(${absent}" at)
  expect("the device translation unit does not register ${absent}" at EQUAL -1)
endforeach()

file(READ "${WORK_DIR}/launches.host.cpp" host)
foreach(line "#define NPUD_KERNEL_NO_TABLE 1" "#include \"npud_ascendc/host_launch.h\""
             "NPUD_ASCENDC_HOST_LAUNCHER(test_ns);" "#include \"${WORK_DIR}/launches.rewritten.cpp\"")
  string(FIND "${host}" "${line}" at)
  expect("the host translation unit has '${line}'" NOT at EQUAL -1)
endforeach()

# The template and the namespaced kernel are launched by the source, so their launches
# register them (device_launch.h): no warning.
foreach(kernel Templated Namespaced)
  string(FIND "${err}" "'${kernel}' is not registered" at)
  expect("the pass does not warn about the launched kernel ${kernel}" at EQUAL -1)
endforeach()

# Without a namespace (ascendc_fatbin_library) there is no host translation unit.
file(MAKE_DIRECTORY "${WORK_DIR}/fatbin")
execute_process(
  COMMAND "${SCANNER}" source "--source=${data}/launches.cpp" "--output-dir=${WORK_DIR}/fatbin"
          --stem=launches --namespace=
  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
expect("the fatbin pass succeeds" rc EQUAL 0)
expect("the fatbin pass writes no host translation unit" NOT EXISTS "${WORK_DIR}/fatbin/launches.host.cpp")

# --- 2. Malformed launches.
function(expect_failure name text message_text)
  file(WRITE "${WORK_DIR}/bad_${name}.cpp" "${text}")
  execute_process(
    COMMAND "${SCANNER}" source "--source=${WORK_DIR}/bad_${name}.cpp" "--output-dir=${WORK_DIR}"
            "--stem=bad_${name}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX REPLACE "[ \n]+" " " err_flat "${err}")
  string(FIND "${err_flat}" "${message_text}" at)
  expect("bad_${name}.cpp fails with '${message_text}' (exit ${rc}):\n${err}" rc EQUAL 1 AND NOT at EQUAL -1)
  expect("bad_${name}.cpp: nothing is written" NOT EXISTS "${WORK_DIR}/bad_${name}.rewritten.cpp")
  set(failures ${failures} PARENT_SCOPE)
endfunction()

expect_failure(one_arg "void f(void* s) {\n  K<<<1>>>(0);\n}\n"
               "bad_one_arg.cpp:2: error: a kernel launch takes two or three arguments")
expect_failure(unclosed "void f(void* s) {\n  K<<<1, nullptr, s;\n}\n"
               "bad_unclosed.cpp:2: error: no '>>>' closes this '<<<'")
expect_failure(no_name "void f(void* s) {\n  (K)<<<1, nullptr, s>>>(0);\n}\n"
               "bad_no_name.cpp:2: error: cannot find the kernel name")
expect_failure(no_args "void f(void* s) {\n\n  K<<<1, nullptr, s>>>;\n}\n"
               "bad_no_args.cpp:3: error: expected the kernel arguments")

# --- 3. Wrong command lines.
foreach(args "source" "source;--source=${data}/launches.cpp;--stem=x"
             "source;--source=${data}/launches.cpp;--output-dir=${WORK_DIR};--stem=x;--bogus=1"
             "rewrite;--source=${data}/launches.cpp" "rtc;--input=${data}/launches.cpp")
  execute_process(COMMAND "${SCANNER}" ${args} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  string(FIND "${err}" "usage: npud-ascendc-scan" at)
  expect("npud-ascendc-scan ${args} fails with 2 and the usage (exit ${rc}):\n${err}"
         rc EQUAL 2 AND NOT at EQUAL -1)
endforeach()
execute_process(COMMAND "${SCANNER}" source "--source=${WORK_DIR}/missing.cpp" "--output-dir=${WORK_DIR}"
                --stem=missing RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
string(FIND "${err}" "cannot read ${WORK_DIR}/missing.cpp" at)
expect("a missing source fails with 2 (exit ${rc}):\n${err}" rc EQUAL 2 AND NOT at EQUAL -1)

if(failures GREATER 0)
  message(FATAL_ERROR "toolchain_rewrite_test: ${failures} check(s) failed")
endif()
message(STATUS "toolchain_rewrite_test: all checks passed")
