#pragma once

#include <memory>

namespace ej::util {

// Owns a C handle from the moment it exists: Handle<git_repository, git_repository_free>.
template <auto Free> struct FreeWith {
  template <typename T> void operator()(T* p) const noexcept { Free(p); }
};

template <typename T, auto Free> using Handle = std::unique_ptr<T, FreeWith<Free>>;

} // namespace ej::util
