# The variant machinery in one place: every kernel is one Halide generator
# instantiation compiled for all x86 ISA levels into a single multi-target
# library, and for CUDA into a second library (<name>_cuda), all sharing one
# Halide runtime. hres_add_kernel() is called from the
# variant loops in generators/CMakeLists.txt; runtime/ links whatever was added.

# Most specific first: Halide's multi-target wrapper takes the first entry whose
# features the CPU has, at the kernel's first call. Halide does not imply lower
# ISA features from a higher one, so each entry spells its whole feature set.
set(HRES_X86_TARGETS
    x86-64-linux-sse41-avx-avx2-fma-f16c-avx512-avx512_skylake-avx512_cannonlake-avx512_zen4-avx512_sapphirerapids
    x86-64-linux-sse41-avx-avx2-fma-f16c-avx512-avx512_skylake
    x86-64-linux-sse41-avx-avx2-fma-f16c
    x86-64-linux-sse41
    CACHE STRING "Halide multi-target list for the x86 kernels, most specific first")

# The shared runtime also carries Halide's CUDA runtime (the driver is loaded at
# run time, so building needs neither a GPU nor the CUDA toolkit).
set(HRES_RUNTIME_TARGET x86-64-linux-sse41-cuda)

# CUDA kernels are PTX, compiled by the driver for the GPU at hand when a
# kernel's module first loads (once per process and context), so one build
# serves every GPU from the capability named here up (the kernels use nothing
# newer than 6.1; Halide 21 names capabilities up to 8.6, and the H100/H200,
# 9.0, JIT the same PTX).
set(HRES_CUDA_TARGET x86-64-linux-sse41-cuda-cuda_capability_61
    CACHE STRING "Halide target of the CUDA kernels")

# hres_add_kernel(NAME <library> GENERATOR <generator> [PARAMS <key=value>...]
#                 [CUDA_PARAMS <key=value>...] [HOST_ONLY] [LLVM_VECTORIZER <feature>])
# CUDA_PARAMS are added for the CUDA library only; HOST_ONLY pipelines (helpers
# the wrapper runs on the host, x86-only variants) get no CUDA library.
# LLVM_VECTORIZER <feature>: the entries with that Halide feature (e.g.
# avx512_zen4: the Sapphire Rapids entry) also run LLVM's loop vectorizer, to
# which such a kernel's schedule leaves the loops it vectorises better than
# Halide 21: gathers and reversed interleaved copies (schedules/x86_loops.h).
function(hres_add_kernel)
    cmake_parse_arguments(PARSE_ARGV 0 ARG "HOST_ONLY" "NAME;GENERATOR;LLVM_VECTORIZER" "PARAMS;CUDA_PARAMS")
    set(x86_targets ${HRES_X86_TARGETS})
    if (ARG_LLVM_VECTORIZER)
        list(TRANSFORM x86_targets APPEND -enable_llvm_loop_opt REGEX "-${ARG_LLVM_VECTORIZER}(-|$)")
    endif ()
    add_halide_library(${ARG_NAME}
                       FROM hres_generators
                       GENERATOR ${ARG_GENERATOR}
                       TARGETS ${x86_targets}
                       USE_RUNTIME hres_halide_runtime
                       PARAMS ${ARG_PARAMS})
    set_property(GLOBAL APPEND PROPERTY HRES_KERNELS ${ARG_NAME})
    if (ARG_HOST_ONLY)
        return()
    endif ()
    add_halide_library(${ARG_NAME}_cuda
                       FROM hres_generators
                       GENERATOR ${ARG_GENERATOR}
                       TARGETS ${HRES_CUDA_TARGET}
                       USE_RUNTIME hres_halide_runtime
                       PARAMS ${ARG_PARAMS} ${ARG_CUDA_PARAMS})
    set_property(GLOBAL APPEND PROPERTY HRES_KERNELS ${ARG_NAME}_cuda)
endfunction()

# Adds the object files of every kernel and of the shared runtime to TARGET, so
# that one static library (libhres.a) carries everything a consumer links.
function(hres_link_kernels TARGET)
    get_property(kernels GLOBAL PROPERTY HRES_KERNELS)
    get_property(kernel_dir GLOBAL PROPERTY HRES_KERNEL_BINARY_DIR)
    foreach (kernel IN LISTS kernels)
        get_target_property(objects ${kernel} SOURCES)
        target_sources(${TARGET} PRIVATE ${objects})
        add_dependencies(${TARGET} ${kernel})
    endforeach ()
    target_sources(${TARGET} PRIVATE "${kernel_dir}/hres_halide_runtime.o")
    add_dependencies(${TARGET} hres_halide_runtime)
    target_include_directories(${TARGET} PRIVATE "$<BUILD_INTERFACE:${kernel_dir}>")
endfunction()
