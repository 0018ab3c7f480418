# xdp.cmake - the payload suite's XDP programs (issue 25): bpf/*.bpf.c
# built by clang's BPF target, embedded in rxbench as a C array, loaded
# with libbpf (engines/xdp_load.c).  Built when clang can target bpf and
# pkg-config finds libbpf (Debian: clang libbpf-dev); else left out with
# a configure message.  The DFA compiler and the frame builder need no
# library and are always built.
#
# rxb_add_xdp(target) adds the sources to `target`, defines RXB_HAVE_XDP
# and links libbpf when the programs are built.

pkg_check_modules(LIBBPF IMPORTED_TARGET libbpf)
find_program(RXB_CLANG_BPF NAMES clang clang-16 clang-15 clang-14)
set(RXB_XDP_FOUND FALSE)
if(LIBBPF_FOUND AND RXB_CLANG_BPF)
  file(WRITE ${CMAKE_BINARY_DIR}/bpf/probe.c "int rxb_probe;\n")
  execute_process(COMMAND ${RXB_CLANG_BPF} -target bpf -O2 -c
                          ${CMAKE_BINARY_DIR}/bpf/probe.c
                          -o ${CMAKE_BINARY_DIR}/bpf/probe.o
                  RESULT_VARIABLE _rxb_bpf_rc OUTPUT_QUIET ERROR_QUIET)
  if(_rxb_bpf_rc EQUAL 0)
    set(RXB_XDP_FOUND TRUE)
  endif()
endif()

function(rxb_add_xdp target)
  target_sources(${target} PRIVATE engines/xdp_dfa.c engines/xdp_frame.c
    engines/xdp_time.c)
  if(NOT RXB_XDP_FOUND)
    message(STATUS "rxbench: xdp: not built (install clang libbpf-dev)")
    return()
  endif()
  message(STATUS "rxbench: xdp: yes (${RXB_CLANG_BPF}, libbpf ${LIBBPF_VERSION})")
  set(src ${CMAKE_SOURCE_DIR}/bpf/xdp_payload.bpf.c)
  set(obj ${CMAKE_BINARY_DIR}/bpf/xdp_payload.bpf.o)
  set(arr ${CMAKE_BINARY_DIR}/bpf/xdp_payload_obj.c)
  set(inc -I${CMAKE_SOURCE_DIR}/bpf)
  if(CMAKE_LIBRARY_ARCHITECTURE) # asm/types.h lives there on Debian
    list(APPEND inc -I/usr/include/${CMAKE_LIBRARY_ARCHITECTURE})
  endif()
  # -g: the object carries BTF, which bpf_loop's callbacks and the
  # .rodata.cfg map need; -Werror as for the rest of the tree.
  add_custom_command(OUTPUT ${obj}
    COMMAND ${RXB_CLANG_BPF} -target bpf -O2 -g -Wall -Wextra -Werror
            ${inc} -c ${src} -o ${obj}
    DEPENDS ${src} ${CMAKE_SOURCE_DIR}/bpf/xdp_shared.h
    COMMENT "clang -target bpf: bpf/xdp_payload.bpf.c")
  add_custom_command(OUTPUT ${arr}
    COMMAND ${CMAKE_COMMAND} -DIN=${obj} -DOUT=${arr} -DNAME=rxb_xdp_obj
            -P ${CMAKE_SOURCE_DIR}/cmake/xdp_embed.cmake
    DEPENDS ${obj} ${CMAKE_SOURCE_DIR}/cmake/xdp_embed.cmake)
  target_sources(${target} PRIVATE engines/xdp_load.c engines/xdp_probe.c
    engines/xdp.c engines/xdp_live.c ${arr})
  target_compile_definitions(${target} PUBLIC RXB_HAVE_XDP)
  target_link_libraries(${target} PUBLIC PkgConfig::LIBBPF)
endfunction()
