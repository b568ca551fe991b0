# Finds the ASC compiler: npud's bisheng (<root>/bin/bisheng), unless
# CMAKE_ASC_COMPILER or $ASC names another.
if(NOT CMAKE_ASC_COMPILER)
  if(DEFINED ENV{ASC} AND NOT "$ENV{ASC}" STREQUAL "")
    set(CMAKE_ASC_COMPILER "$ENV{ASC}")
  else()
    find_program(CMAKE_ASC_COMPILER NAMES bisheng
                 HINTS "${NPUD_ASC_ROOT}/bin" NO_DEFAULT_PATH)
  endif()
endif()
mark_as_advanced(CMAKE_ASC_COMPILER)
if(NOT CMAKE_ASC_COMPILER OR NOT EXISTS "${CMAKE_ASC_COMPILER}")
  message(FATAL_ERROR "ASC: no compiler found (expected ${NPUD_ASC_ROOT}/bin/bisheng)")
endif()

set(CMAKE_ASC_SOURCE_FILE_EXTENSIONS asc)
set(CMAKE_ASC_COMPILER_ENV_VAR "ASC")
set(CMAKE_ASC_STANDARD_DEFAULT 17)
configure_file("${CMAKE_CURRENT_LIST_DIR}/CMakeASCCompiler.cmake.in"
               "${CMAKE_PLATFORM_INFO_DIR}/CMakeASCCompiler.cmake" @ONLY)
