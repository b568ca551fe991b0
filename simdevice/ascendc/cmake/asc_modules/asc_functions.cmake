# The functions CANN's FindASC gives projects that use the ASC language.

# ascendc_library(<name> STATIC|SHARED <sources...>): a library of ASC sources
# (any listed source is compiled as ASC), position independent, that links
# programs against the ACL runtime of the install tree.
function(ascendc_library name type)
  if(NOT type MATCHES "^(STATIC|SHARED)$")
    message(FATAL_ERROR "ascendc_library(${name} ${type} ...): the type is STATIC or SHARED")
  endif()
  set_source_files_properties(${ARGN} PROPERTIES LANGUAGE ASC)
  add_library(${name} ${type} ${ARGN})
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON LINKER_LANGUAGE ASC)
  target_include_directories(${name} INTERFACE "${NPUD_ASC_ROOT}/include")
  target_link_libraries(${name} INTERFACE "${NPUD_ASC_ROOT}/lib64/libacl_rt.so")
  include(GNUInstallDirs)
  install(TARGETS ${name} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
                          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
endfunction()

# ascendc_fatbin_library(<name> <sources...>): a kernel object <name>.o of the
# sources' kernels only (bisheng --aicore-only), which programs load with
# aclrtBinaryLoadFromFile and launch by name.
function(ascendc_fatbin_library name)
  set_source_files_properties(${ARGN} PROPERTIES LANGUAGE ASC)
  add_library(${name} MODULE ${ARGN})
  set_target_properties(${name} PROPERTIES PREFIX "" SUFFIX ".o" LINKER_LANGUAGE ASC)
  target_compile_options(${name} PRIVATE --aicore-only)
  target_link_options(${name} PRIVATE --aicore-only)
endfunction()

function(ascendc_compile_definitions name scope)
  target_compile_definitions(${name} ${scope} ${ARGN})
endfunction()

function(ascendc_include_directories name scope)
  target_include_directories(${name} ${scope} ${ARGN})
endfunction()

# Options before -forward-options-to-host-compiler apply to the kernels, those
# after it to the host code; bisheng reads the -X...-start/-end brackets.
function(ascendc_compile_options name scope)
  set(kernel_options)
  set(host_options)
  set(host OFF)
  foreach(option ${ARGN})
    if(option STREQUAL "-forward-options-to-host-compiler")
      set(host ON)
    elseif(host)
      list(APPEND host_options "${option}")
    else()
      list(APPEND kernel_options "${option}")
    endif()
  endforeach()
  set(options)
  if(kernel_options)
    list(APPEND options -Xaicore-start ${kernel_options} -Xaicore-end)
  endif()
  if(host_options)
    list(APPEND options -Xhost-start ${host_options} -Xhost-end)
  endif()
  if(options)
    target_compile_options(${name} ${scope} "SHELL:${options}")
  endif()
endfunction()
