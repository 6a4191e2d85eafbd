# Embeds OpenCL C sources into a generated C++ file as string literals, so the library needs no
# kernel files at run time. clvf_embed_kernels(OUT_VAR file...) yields the generated source.
function(clvf_embed_kernels out_var)
  set(out ${CMAKE_CURRENT_BINARY_DIR}/kernels_embedded.cpp)
  string(REPLACE ";" "|" files "${ARGN}")
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} "-DFILES=${files}" -P ${PROJECT_SOURCE_DIR}/cmake/embed_kernels_script.cmake
    DEPENDS ${ARGN} ${PROJECT_SOURCE_DIR}/cmake/embed_kernels_script.cmake
    COMMENT "Embedding OpenCL kernels"
    VERBATIM)
  set(${out_var} ${out} PARENT_SCOPE)
endfunction()
