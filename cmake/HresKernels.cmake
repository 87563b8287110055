# The kernel machinery in one place: the kernel table (kernels/kernels.toml)
# lists every kernel; kernels/table.py expands it into one hres_add_kernel()
# call per library (generators/CMakeLists.txt) and into the runtime's
# registry (runtime/CMakeLists.txt). An x86 kernel is one Halide generator
# instantiation compiled for all the table's x86 entries into a single
# multi-target library; a CUDA kernel is its own library (<name>_cuda); all
# share one Halide runtime.

# The shared runtime also carries Halide's CUDA runtime (the driver is loaded at
# run time, so building needs neither a GPU nor the CUDA toolkit).
set(HRES_RUNTIME_TARGET x86-64-linux-sse41-cuda)

find_package(Python3 3.11 REQUIRED COMPONENTS Interpreter)  # tomllib
set(HRES_KERNEL_TABLE "${PROJECT_SOURCE_DIR}/kernels/kernels.toml")
set(HRES_KNOB_TABLE "${PROJECT_SOURCE_DIR}/kernels/knobs.toml")
set(HRES_KERNEL_TABLE_SCRIPT "${PROJECT_SOURCE_DIR}/kernels/table.py")
set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             "${HRES_KERNEL_TABLE}" "${HRES_KNOB_TABLE}" "${HRES_KERNEL_TABLE_SCRIPT}")

# hres_kernel_table(cmake|registry|knobs FILE): writes what kernels/table.py
# builds from the table into FILE; a table error stops the configure step.
function(hres_kernel_table what file)
    execute_process(COMMAND "${Python3_EXECUTABLE}" "${HRES_KERNEL_TABLE_SCRIPT}" ${what} "${file}"
                    RESULT_VARIABLE rc ERROR_VARIABLE message)
    if (NOT rc EQUAL 0)
        message(FATAL_ERROR "kernels/table.py ${what} failed: ${message}")
    endif ()
endfunction()

# hres_add_kernel(LIBRARY GENERATOR TARGETS [PARAMS...]): one kernel library,
# built by the generator for the comma-separated Halide targets with the
# generator parameters given (kernels/table.py writes these calls).
function(hres_add_kernel library generator targets)
    string(REPLACE "," ";" target_list "${targets}")
    add_halide_library(${library}
                       FROM hres_generators
                       GENERATOR ${generator}
                       TARGETS ${target_list}
                       USE_RUNTIME hres_halide_runtime
                       PARAMS ${ARGN})
    set_property(GLOBAL APPEND PROPERTY HRES_KERNELS ${library})
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
