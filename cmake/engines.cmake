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
  if(RE2_FOUND)
    target_sources(${target} PRIVATE engines/re2.c engines/cre2.cc)
    target_compile_definitions(${target} PUBLIC RXB_HAVE_RE2
      RXB_RE2_VERSION="${RXB_RE2_VERSION}")
    target_link_libraries(${target} PUBLIC PkgConfig::RE2)
  endif()
  if(PCRE2_FOUND)
    target_sources(${target} PRIVATE engines/pcre2.c engines/pcre2_dfa.c)
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
endfunction()
