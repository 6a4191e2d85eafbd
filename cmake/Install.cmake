# cmake --install: the shared library and the layer, the C and C++ headers, the presets (the library embeds the
# filters'; chains.preset serves tools/clvf-batch, installed too), a CMake package
# (find_package(clvf) gives clvf::detail::clvf) and a pkg-config file.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS clvf EXPORT clvfTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The sharing as an OpenCL layer (OPENCL_LAYERS), for programs that call no clvf* function.
install(TARGETS clvf_layer LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/clvf/clvf.h ${PROJECT_SOURCE_DIR}/include/clvf/clvf.hpp
  ${PROJECT_SOURCE_DIR}/include/clvf/cl_interop.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/clvf)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/presets/ DESTINATION ${CMAKE_INSTALL_DATADIR}/clvf/presets)

set(CLVF_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/clvf)
install(EXPORT clvfTargets NAMESPACE clvf:: DESTINATION ${CLVF_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/clvfConfig.cmake.in
  ${PROJECT_BINARY_DIR}/clvfConfig.cmake INSTALL_DESTINATION ${CLVF_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/clvfConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/clvfConfig.cmake ${PROJECT_BINARY_DIR}/clvfConfigVersion.cmake
  DESTINATION ${CLVF_CMAKE_DIR})

file(RELATIVE_PATH CLVF_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
configure_file(${PROJECT_SOURCE_DIR}/cmake/clvf.pc.in ${PROJECT_BINARY_DIR}/clvf.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/clvf.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
install(PROGRAMS ${PROJECT_SOURCE_DIR}/tools/clvf-batch DESTINATION ${CMAKE_INSTALL_BINDIR})
