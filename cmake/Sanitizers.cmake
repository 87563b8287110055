# Instrumented twins: the runtime, the command line and the tests built again
# under AddressSanitizer + UndefinedBehaviorSanitizer (asan) or
# ThreadSanitizer (tsan), linked to the same generated kernels (Halide's
# output itself is not instrumented), so that the suite runs under the
# sanitizers without generating the kernels twice. ctest runs the twins as
# tests of their own (tests/CMakeLists.txt).
set(HRES_SANITIZERS "asan;tsan" CACHE STRING "Sanitizers the suite also runs under (asan, tsan; empty: none)")
set(HRES_SANITIZER_FLAGS_asan -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
set(HRES_SANITIZER_FLAGS_tsan -fsanitize=thread)

# TARGET_<kind>: TARGET's sources, include paths, definitions, options and
# libraries (each library with a twin of this kind replaced by it), built
# with the sanitizer's flags.
function(hres_sanitized_twin TARGET KIND)
    set(twin ${TARGET}_${KIND})
    get_target_property(type ${TARGET} TYPE)
    get_target_property(sources ${TARGET} SOURCES)
    get_target_property(source_dir ${TARGET} SOURCE_DIR)
    list(TRANSFORM sources PREPEND "${source_dir}/" REGEX "^[^/$]")
    if (type STREQUAL "EXECUTABLE")
        add_executable(${twin} ${sources})
    else ()
        add_library(${twin} STATIC ${sources})
    endif ()
    # Per-file options (runtime/src/cuda.cpp's -ffp-contract=off) belong to the
    # original's directory.
    foreach (source IN LISTS sources)
        get_source_file_property(options "${source}" DIRECTORY "${source_dir}" COMPILE_OPTIONS)
        if (options)
            set_source_files_properties("${source}" TARGET_DIRECTORY ${twin} PROPERTIES COMPILE_OPTIONS "${options}")
        endif ()
    endforeach ()
    foreach (property INCLUDE_DIRECTORIES COMPILE_DEFINITIONS COMPILE_OPTIONS INTERFACE_INCLUDE_DIRECTORIES
                      INTERFACE_COMPILE_DEFINITIONS)
        get_target_property(value ${TARGET} ${property})
        if (value)
            set_property(TARGET ${twin} PROPERTY ${property} "${value}")
        endif ()
    endforeach ()
    foreach (property LINK_LIBRARIES INTERFACE_LINK_LIBRARIES)
        get_target_property(libraries ${TARGET} ${property})
        if (NOT libraries)
            continue()
        endif ()
        set(mapped "")
        foreach (library IN LISTS libraries)
            if (TARGET ${library}_${KIND})
                list(APPEND mapped ${library}_${KIND})
            else ()
                list(APPEND mapped "${library}")
            endif ()
        endforeach ()
        set_property(TARGET ${twin} PROPERTY ${property} "${mapped}")
    endforeach ()
    get_target_property(dependencies ${TARGET} MANUALLY_ADDED_DEPENDENCIES)
    if (dependencies)
        add_dependencies(${twin} ${dependencies})
    endif ()
    target_compile_options(${twin} PRIVATE ${HRES_SANITIZER_FLAGS_${KIND}})
    target_link_options(${twin} PUBLIC ${HRES_SANITIZER_FLAGS_${KIND}})
    set_target_properties(${twin} PROPERTIES OUTPUT_NAME ${twin})
endfunction()
