# cmake/rtpackDependencies.cmake — finds rtpack's third-party libraries and
# gives each one imported target, whoever asks: the build itself, the
# standalone fuzz project (fuzz/CMakeLists.txt) and consumers through the
# installed rtpackConfig.cmake (this file is installed beside it).
#
#   rtp_find_dependencies(cjson gmp glpk openmp zlib threads)
#
# defines, for the names given: rtpack::cjson, rtpack::gmp, rtpack::glpk,
# rtpack::zlib (imported targets), OpenMP::OpenMP_C and Threads::Threads;
# also rtpack::libdivide (header only: the build and the fuzz project ask
# for it, installed consumers need not, its code is compiled in).
# Names not found are listed in RTP_DEPENDENCIES_MISSING (the caller decides
# whether that is fatal).
# Why each is found this way (docs/platform-notes.md): GLPK 5.0 ships
# neither a .pc file nor a CMake package; cJSON 1.7.15's package gives a
# target `cjson`, its pkg-config name is libcjson; GMP has a .pc file on
# Debian 12 but not everywhere.
include_guard(GLOBAL)

macro(rtp_find_dependencies)
  set(RTP_DEPENDENCIES_MISSING "")
  foreach(_rtp_dep ${ARGN})
    if(_rtp_dep STREQUAL "cjson" AND NOT TARGET rtpack::cjson)
      find_package(cJSON QUIET)
      if(TARGET cjson)
        add_library(rtpack::cjson INTERFACE IMPORTED)
        set_target_properties(rtpack::cjson PROPERTIES INTERFACE_LINK_LIBRARIES cjson)
      else()
        find_package(PkgConfig QUIET)
        if(PKG_CONFIG_FOUND)
          pkg_check_modules(RTP_CJSON QUIET IMPORTED_TARGET libcjson)
        endif()
        if(TARGET PkgConfig::RTP_CJSON)
          add_library(rtpack::cjson INTERFACE IMPORTED)
          set_target_properties(rtpack::cjson PROPERTIES
                                INTERFACE_LINK_LIBRARIES PkgConfig::RTP_CJSON)
        else()
          list(APPEND RTP_DEPENDENCIES_MISSING "cJSON (libcjson-dev)")
        endif()
      endif()
    elseif(_rtp_dep STREQUAL "gmp" AND NOT TARGET rtpack::gmp)
      find_path(RTP_GMP_INCLUDE_DIR gmp.h)
      find_library(RTP_GMP_LIBRARY gmp)
      if(RTP_GMP_INCLUDE_DIR AND RTP_GMP_LIBRARY)
        add_library(rtpack::gmp UNKNOWN IMPORTED)
        set_target_properties(rtpack::gmp PROPERTIES IMPORTED_LOCATION "${RTP_GMP_LIBRARY}"
                              INTERFACE_INCLUDE_DIRECTORIES "${RTP_GMP_INCLUDE_DIR}")
      else()
        list(APPEND RTP_DEPENDENCIES_MISSING "GMP (libgmp-dev)")
      endif()
    elseif(_rtp_dep STREQUAL "libdivide" AND NOT TARGET rtpack::libdivide)
      find_path(RTP_LIBDIVIDE_INCLUDE_DIR libdivide.h)
      if(RTP_LIBDIVIDE_INCLUDE_DIR)
        add_library(rtpack::libdivide INTERFACE IMPORTED)
        set_target_properties(rtpack::libdivide PROPERTIES
                              INTERFACE_INCLUDE_DIRECTORIES "${RTP_LIBDIVIDE_INCLUDE_DIR}")
      else()
        list(APPEND RTP_DEPENDENCIES_MISSING "libdivide (libdivide-dev)")
      endif()
    elseif(_rtp_dep STREQUAL "glpk" AND NOT TARGET rtpack::glpk)
      find_path(RTP_GLPK_INCLUDE_DIR glpk.h)
      find_library(RTP_GLPK_LIBRARY glpk)
      if(RTP_GLPK_INCLUDE_DIR AND RTP_GLPK_LIBRARY)
        add_library(rtpack::glpk UNKNOWN IMPORTED)
        set_target_properties(rtpack::glpk PROPERTIES IMPORTED_LOCATION "${RTP_GLPK_LIBRARY}"
                              INTERFACE_INCLUDE_DIRECTORIES "${RTP_GLPK_INCLUDE_DIR}")
      else()
        list(APPEND RTP_DEPENDENCIES_MISSING "GLPK (libglpk-dev)")
      endif()
    elseif(_rtp_dep STREQUAL "zlib" AND NOT TARGET rtpack::zlib)
      find_package(ZLIB QUIET)
      if(TARGET ZLIB::ZLIB)
        add_library(rtpack::zlib INTERFACE IMPORTED)
        set_target_properties(rtpack::zlib PROPERTIES INTERFACE_LINK_LIBRARIES ZLIB::ZLIB)
      else()
        list(APPEND RTP_DEPENDENCIES_MISSING "zlib (zlib1g-dev)")
      endif()
    elseif(_rtp_dep STREQUAL "threads" AND NOT TARGET Threads::Threads)
      find_package(Threads QUIET)
      if(NOT TARGET Threads::Threads)
        list(APPEND RTP_DEPENDENCIES_MISSING "POSIX threads")
      endif()
    elseif(_rtp_dep STREQUAL "openmp" AND NOT TARGET OpenMP::OpenMP_C)
      find_package(OpenMP QUIET COMPONENTS C)
      if(NOT OpenMP_C_FOUND)
        list(APPEND RTP_DEPENDENCIES_MISSING "OpenMP (gcc's libgomp)")
      endif()
    endif()
  endforeach()
endmacro()
