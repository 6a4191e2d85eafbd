# Windows builds (mingw-w64, cmake/mingw-w64.cmake): Debian has no mingw builds of OpenCL's
# loader, fmt, xxhash or GoogleTest, but ships what they need: the OpenCL headers (the import
# library for OpenCL.dll is made here from cmake/windows/OpenCL.def), fmt and xxhash as headers
# (used header-only), and GoogleTest's sources (built here). Only those headers are exposed:
# /usr/include itself holds glibc's, which mingw must not see.
set(host_headers ${CMAKE_BINARY_DIR}/host-headers)
file(MAKE_DIRECTORY ${host_headers})
foreach(h CL fmt xxhash.h)
  if(NOT EXISTS ${host_headers}/${h})
    file(CREATE_LINK /usr/include/${h} ${host_headers}/${h} SYMBOLIC)
  endif()
endforeach()

# Named like a static library so that -static links (FFmpeg's) find it too.
set(opencl_import ${CMAKE_BINARY_DIR}/lib/libOpenCL.a)
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/lib)
execute_process(COMMAND x86_64-w64-mingw32-dlltool -d ${PROJECT_SOURCE_DIR}/cmake/windows/OpenCL.def -l ${opencl_import}
  RESULT_VARIABLE dlltool_result)
if(NOT dlltool_result EQUAL 0)
  message(FATAL_ERROR "x86_64-w64-mingw32-dlltool could not make the OpenCL import library")
endif()
add_library(clvf_opencl INTERFACE)
target_include_directories(clvf_opencl SYSTEM INTERFACE ${host_headers})
target_link_libraries(clvf_opencl INTERFACE ${opencl_import})
add_library(OpenCL::OpenCL ALIAS clvf_opencl)

add_library(clvf_fmt INTERFACE)
target_include_directories(clvf_fmt SYSTEM INTERFACE ${host_headers})
target_compile_definitions(clvf_fmt INTERFACE FMT_HEADER_ONLY)
add_library(fmt::fmt ALIAS clvf_fmt)

add_library(clvf_xxhash INTERFACE)
target_include_directories(clvf_xxhash SYSTEM INTERFACE ${host_headers})
target_compile_definitions(clvf_xxhash INTERFACE XXH_INLINE_ALL)
add_library(PkgConfig::XXHASH ALIAS clvf_xxhash)
