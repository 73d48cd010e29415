# cmake/rtpackModule.cmake — one static library per module folder.
#
#   rtp_add_module(NAME [HEADERS public headers...] [PUBLIC lower modules...]
#                  [PRIVATE third-party...])
#
# in NAME/CMakeLists.txt makes the target rtpack_NAME from NAME/*.c. HEADERS
# are the module's part of the installed API (include/rtpack/NAME/, included
# by consumers as <rtpack/NAME/x.h>); every other header of the folder is
# internal and never installed, so a public header may include only public
# ones (tests/cmake_consumer.sh checks each compiles alone). A module
# links only the modules below it (PUBLIC: their headers are part of its
# own) and keeps its third-party libraries PRIVATE, so an upward call is an
# undefined symbol when the module's tests link it alone. The HEADERS also
# make up <rtpack/rtpack.h> and are the only API librtpack.so exports
# (models/api.h). RTP_ROOT (the
# source root) and RTP_WARNINGS come from the including project.
include_guard(GLOBAL)

function(rtp_add_module name)
  cmake_parse_arguments(MOD "" "" "HEADERS;PUBLIC;PRIVATE" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.c)
  set(target rtpack_${name})
  add_library(${target} STATIC ${sources})
  target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${RTP_ROOT}>)
  target_compile_options(${target} PRIVATE ${RTP_WARNINGS})
  target_link_libraries(${target} PUBLIC ${MOD_PUBLIC} PRIVATE ${MOD_PRIVATE})
  set_property(GLOBAL APPEND PROPERTY RTP_MODULE_TARGETS ${target})
  if(MOD_HEADERS)
    install(FILES ${MOD_HEADERS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/rtpack/${name})
    foreach(header ${MOD_HEADERS})
      set_property(GLOBAL APPEND PROPERTY RTP_INSTALLED_HEADERS ${name}/${header})
    endforeach()
  endif()
endfunction()
