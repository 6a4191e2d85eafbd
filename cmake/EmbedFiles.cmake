# Embeds text files (kernels, presets) into a generated C++ file as string literals, so the
# library needs no data files at run time. clvf_embed_files(OUT_VAR NAMESPACE HEADER file...)
# yields the generated source, which defines clvf::detail::NAMESPACE::source(name) declared in HEADER.
function(clvf_embed_files out_var namespace header)
  set(out ${CMAKE_CURRENT_BINARY_DIR}/${namespace}_embedded.cpp)
  string(REPLACE ";" "|" files "${ARGN}")
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DNS=${namespace} -DHEADER=${header} "-DFILES=${files}"
            -P ${PROJECT_SOURCE_DIR}/cmake/embed_files_script.cmake
    DEPENDS ${ARGN} ${PROJECT_SOURCE_DIR}/cmake/embed_files_script.cmake
    COMMENT "Embedding ${namespace}"
    VERBATIM)
  set(${out_var} ${out} PARENT_SCOPE)
endfunction()
