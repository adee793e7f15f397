# The OpenCL backend, always built: the library links the Khronos ICD loader (CMakeLists.txt
# finds it) and nothing else of OpenCL. Included by CMakeLists.txt with every backend's
# backend.cmake; ORX_HAVE_OPENCL is what its registry row reads.
target_sources(ocl_reduce_objects PRIVATE
  src/backends/opencl/backend.c src/backends/opencl/copies.c src/backends/opencl/device_list.c
  src/backends/opencl/devices.c src/backends/opencl/errors.c src/backends/opencl/host_backed.c
  src/backends/opencl/programs.c src/backends/opencl/quiet_build.c)
target_compile_definitions(ocl_reduce_objects PRIVATE ORX_HAVE_OPENCL)
