# The CUDA backend, built where the CUDA toolkit's headers are found (OCL_REDUCE_ENABLE_CUDA):
# only the headers, for the driver's and NVRTC's types; both are opened at run time
# (src/backends/cuda/cuda.h), so nothing CUDA is linked. Included by CMakeLists.txt with every
# backend's backend.cmake; ORX_HAVE_CUDA is what its registry row reads.
if(CUDAToolkit_FOUND)
  target_sources(ocl_reduce_objects PRIVATE src/backends/cuda/backend.c
    src/backends/cuda/copies.c src/backends/cuda/devices.c src/backends/cuda/loader.c)
  target_include_directories(ocl_reduce_objects SYSTEM PRIVATE ${CUDAToolkit_INCLUDE_DIRS})
  target_compile_definitions(ocl_reduce_objects PRIVATE ORX_HAVE_CUDA
    CUDA_VERSION_MAJOR=${CUDAToolkit_VERSION_MAJOR})
  message(STATUS "ocl_reduce: CUDA backend built (toolkit ${CUDAToolkit_VERSION} headers)")
else()
  message(STATUS "ocl_reduce: no CUDA toolkit headers, the CUDA backend is not built")
endif()
