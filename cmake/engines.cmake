# engines.cmake - find each engine's library with pkg-config (Boost,
# which ships no .pc file on Debian, with its CMake package).
#
# rxb_add_engines(target) adds the adapters whose library was found to
# `target`, defines RXB_HAVE_<ENGINE> for engines/registry.c, and links
# the libraries.  A library that is absent leaves its engine out with a
# configure message.

pkg_check_modules(RE2 IMPORTED_TARGET re2)
pkg_check_modules(PCRE2 IMPORTED_TARGET libpcre2-8)
pkg_check_modules(HS IMPORTED_TARGET libhs)
pkg_check_modules(TRE IMPORTED_TARGET tre)
pkg_check_modules(ONIG IMPORTED_TARGET oniguruma)
# Boost.Regex (Debian: libboost-regex-dev) installs BoostConfig.cmake.
find_package(Boost QUIET COMPONENTS regex)
# Runners (engines/runner.h): programs in the engine's language, built
# into <build>/runners/ when their toolchain is found.
find_program(RXB_GO go)
find_program(RXB_PYTHON3 python3 PATHS /usr/bin NO_DEFAULT_PATH)
find_program(RXB_NODE NAMES node nodejs)

# rust-regex: Rust's regex crate, built offline by cargo against the crates
# Debian packages (librust-regex-dev and the two it uses for literals,
# librust-aho-corasick-dev and librust-memchr-dev) in RXB_CARGO_REGISTRY.
# Debian's cargo first: /root/.cargo/bin/cargo (rustup) may sit earlier
# on PATH.
set(RXB_CARGO_REGISTRY "/usr/share/cargo/registry" CACHE PATH
    "directory of packaged Rust crates (Debian: /usr/share/cargo/registry)")
# Where cargo and go keep what they build: the build tree's own by default.
# A second build tree of the same sources may name the first's (.ci/run's
# sanitizer build does): the crate is built --release whatever the build
# type, and go's cache is shared safely, so neither is built twice.
set(RXB_CARGO_TARGET_DIR "${CMAKE_BINARY_DIR}/cargo-target" CACHE PATH
    "cargo's target directory for the rust-regex library")
set(RXB_GOCACHE "${CMAKE_BINARY_DIR}/go/cache" CACHE PATH
    "GOCACHE for the Go runner and the Go tests")
if(EXISTS /usr/bin/cargo)
  set(RXB_CARGO /usr/bin/cargo)
else()
  find_program(RXB_CARGO cargo)
endif()
file(GLOB _rxb_rust_regex "${RXB_CARGO_REGISTRY}/regex-1.*")
file(GLOB _rxb_rust_ac "${RXB_CARGO_REGISTRY}/aho-corasick-0.7*")
file(GLOB _rxb_rust_memchr "${RXB_CARGO_REGISTRY}/memchr-2.*")
set(RUST_REGEX_FOUND FALSE)
if(RXB_CARGO AND _rxb_rust_regex AND _rxb_rust_ac AND _rxb_rust_memchr)
  set(RUST_REGEX_FOUND TRUE)
  list(GET _rxb_rust_regex 0 _rxb_rust_regex)
  get_filename_component(RXB_RUST_REGEX_VERSION "${_rxb_rust_regex}" NAME)
  string(REGEX REPLACE "^regex-" "" RXB_RUST_REGEX_VERSION
         "${RXB_RUST_REGEX_VERSION}")
endif()

# Debian's re2.pc says 0.0.0; the package version is the useful one.
set(RXB_RE2_VERSION "${RE2_VERSION}")
if(RE2_FOUND AND (RXB_RE2_VERSION STREQUAL "0.0.0" OR NOT RXB_RE2_VERSION))
  execute_process(COMMAND dpkg-query -W -f=\${Version} libre2-dev
                  OUTPUT_VARIABLE _re2_deb ERROR_QUIET
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(_re2_deb)
    string(REGEX REPLACE "^([0-9]+).*" "\\1" RXB_RE2_VERSION "${_re2_deb}")
  endif()
endif()

function(rxb_engine_status name found)
  if(found)
    message(STATUS "rxbench: engine ${name}: yes")
  else()
    message(STATUS "rxbench: engine ${name}: NO (library not found; left out)")
  endif()
endfunction()

function(rxb_add_engines target)
  rxb_engine_status(re2 "${RE2_FOUND}")
  rxb_engine_status(pcre2 "${PCRE2_FOUND}")
  rxb_engine_status(pcre2-dfa "${PCRE2_FOUND}")
  rxb_engine_status(hyperscan "${HS_FOUND}")
  rxb_engine_status(tre "${TRE_FOUND}")
  rxb_engine_status(onig "${ONIG_FOUND}")
  rxb_engine_status(boost "${Boost_REGEX_FOUND}")
  rxb_engine_status(rust-regex "${RUST_REGEX_FOUND}")
  rxb_engine_status(go "${RXB_GO}")
  rxb_engine_status(python-re "${RXB_PYTHON3}")
  rxb_engine_status(v8 "${RXB_NODE}")
  if(RE2_FOUND)
    target_sources(${target} PRIVATE engines/re2.c engines/cre2.cc)
    target_compile_definitions(${target} PUBLIC RXB_HAVE_RE2
      RXB_RE2_VERSION="${RXB_RE2_VERSION}")
    target_link_libraries(${target} PUBLIC PkgConfig::RE2)
  endif()
  if(PCRE2_FOUND)
    target_sources(${target} PRIVATE engines/pcre2.c engines/pcre2_dfa.c
      engines/pcre2_common.c)
    target_compile_definitions(${target} PUBLIC RXB_HAVE_PCRE2)
    target_link_libraries(${target} PUBLIC PkgConfig::PCRE2)
  endif()
  if(HS_FOUND)
    target_sources(${target} PRIVATE engines/hyperscan.c)
    target_compile_definitions(${target} PUBLIC RXB_HAVE_HYPERSCAN)
    target_link_libraries(${target} PUBLIC PkgConfig::HS)
  endif()
  if(TRE_FOUND)
    target_sources(${target} PRIVATE engines/tre.c)
    target_compile_definitions(${target} PUBLIC RXB_HAVE_TRE)
    target_link_libraries(${target} PUBLIC PkgConfig::TRE)
  endif()
  if(ONIG_FOUND)
    target_sources(${target} PRIVATE engines/onig.c)
    target_compile_definitions(${target} PUBLIC RXB_HAVE_ONIG)
    target_link_libraries(${target} PUBLIC PkgConfig::ONIG)
  endif()
  if(Boost_REGEX_FOUND)
    target_sources(${target} PRIVATE engines/boost.c engines/boost_pattern.c
      engines/cboost.cc)
    target_compile_definitions(${target} PUBLIC RXB_HAVE_BOOST)
    target_link_libraries(${target} PUBLIC Boost::regex)
  endif()
  if(RUST_REGEX_FOUND)
    rxb_add_rust_regex(${target})
  endif()
  target_compile_definitions(${target} PUBLIC
    RXB_RUNNER_DIR="${CMAKE_BINARY_DIR}/runners")
  if(RXB_GO)
    rxb_add_go_runner(${target})
  endif()
  if(RXB_PYTHON3)
    rxb_add_script_runner(${target} python rxbench-python.py rxbench_fqdn.py)
    target_sources(${target} PRIVATE engines/python_re.c)
    target_compile_definitions(${target} PUBLIC RXB_HAVE_PYTHON_RE
      RXB_PYTHON3="${RXB_PYTHON3}")
  endif()
  if(RXB_NODE)
    rxb_add_script_runner(${target} node rxbench-v8.js fqdn.js)
    target_sources(${target} PRIVATE engines/v8.c)
    target_compile_definitions(${target} PUBLIC RXB_HAVE_V8
      RXB_NODE="${RXB_NODE}")
  endif()
endfunction()

# A runner that is a script: copied into <build>/runners/ beside the rest,
# with the modules it loads from its own directory (the further files).
function(rxb_add_script_runner target dir file)
  set(outs)
  foreach(f ${file} ${ARGN})
    set(out ${CMAKE_BINARY_DIR}/runners/${f})
    add_custom_command(OUTPUT ${out}
      COMMAND ${CMAKE_COMMAND} -E copy
        ${CMAKE_SOURCE_DIR}/engines/runners/${dir}/${f} ${out}
      DEPENDS ${CMAKE_SOURCE_DIR}/engines/runners/${dir}/${f})
    list(APPEND outs ${out})
  endforeach()
  add_custom_target(rxb_runner_${dir} ALL DEPENDS ${outs})
  add_dependencies(${target} rxb_runner_${dir})
endfunction()

# The Rust static library (engines/rust/) and its adapter.  cargo runs
# offline and locked, with a CARGO_HOME of its own in the build tree whose
# config replaces crates.io with the packaged registry: nothing downloads.
function(rxb_add_rust_regex target)
  set(home "${CMAKE_BINARY_DIR}/cargo-home")
  set(dir "${CMAKE_SOURCE_DIR}/engines/rust")
  set(lib "${RXB_CARGO_TARGET_DIR}/release/librxb_rust_regex.a")
  file(WRITE "${home}/config.toml"
       "[source.crates-io]\nreplace-with = \"debian\"\n"
       "[source.debian]\ndirectory = \"${RXB_CARGO_REGISTRY}\"\n"
       "[net]\noffline = true\n")
  add_custom_command(OUTPUT "${lib}"
    COMMAND ${CMAKE_COMMAND} -E env CARGO_HOME=${home}
            CARGO_TARGET_DIR=${RXB_CARGO_TARGET_DIR}
            ${RXB_CARGO} build --release --offline --locked --quiet
            --manifest-path ${dir}/Cargo.toml
    DEPENDS ${dir}/Cargo.toml ${dir}/Cargo.lock ${dir}/src/lib.rs
    COMMENT "cargo: engines/rust (regex ${RXB_RUST_REGEX_VERSION}, offline)"
    VERBATIM)
  add_custom_target(rxb_rust_regex_lib DEPENDS "${lib}")
  add_dependencies(${target} rxb_rust_regex_lib)
  target_sources(${target} PRIVATE engines/rust_regex.c)
  target_compile_definitions(${target} PUBLIC RXB_HAVE_RUST_REGEX
    RXB_RUST_REGEX_VERSION="${RXB_RUST_REGEX_VERSION}")
  # what rustc's staticlib needs from the C side (--print native-static-libs)
  target_link_libraries(${target} PUBLIC "${lib}" pthread dl m)
endfunction()

# The Go runner: standard library only, built offline (GOPROXY=off, no
# module downloads) with its cache under the build directory, so that it
# builds as root on a fresh machine and in CI.
function(rxb_add_go_runner target)
  set(dir ${CMAKE_BINARY_DIR}/runners)
  set(src ${CMAKE_SOURCE_DIR}/engines/runners/go)
  add_custom_command(OUTPUT ${dir}/rxbench-go
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    COMMAND ${CMAKE_COMMAND} -E env GOCACHE=${RXB_GOCACHE}
      GOPATH=${CMAKE_BINARY_DIR}/go/path GO111MODULE=on GOPROXY=off
      GOFLAGS=-trimpath GOTOOLCHAIN=local
      ${RXB_GO} build -o ${dir}/rxbench-go .
    WORKING_DIRECTORY ${src}
    DEPENDS ${src}/main.go ${src}/fqdn.go ${src}/fqdnop/rewrite.go
            ${src}/go.mod
    COMMENT "Building the Go runner (engines/runners/go)")
  add_custom_target(rxb_runner_go ALL DEPENDS ${dir}/rxbench-go)
  add_dependencies(${target} rxb_runner_go)
  target_sources(${target} PRIVATE engines/go.c)
  target_compile_definitions(${target} PUBLIC RXB_HAVE_GO)
endfunction()
