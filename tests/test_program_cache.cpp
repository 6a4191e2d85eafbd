// The on-disk binary cache on a real device: miss then hit, a different option or source is a
// different entry, damaged and foreign entries are rebuilt (never trusted), an unwritable folder
// only costs the caching.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "runtime/device.hpp"
#include "runtime/error.hpp"
#include "test_device.hpp"

namespace clvf::detail {
namespace {

namespace fs = std::filesystem;

const std::string kSource = "__kernel void add(__global int *p, int v) { p[get_global_id(0)] += v; }\n";

int run_add(const std::shared_ptr<Device>& dev, const Program& program) {
  int value = 40;
  cl::Buffer buf(dev->context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof value, &value);
  Kernel k = program.kernel("add");
  k.set("p", buf);
  k.set("v", 2);
  dev->queue().enqueueNDRangeKernel(k.get(), cl::NullRange, cl::NDRange(1));
  dev->queue().enqueueReadBuffer(buf, CL_TRUE, 0, sizeof value, &value);
  return value;
}

class ProgramCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("clvf-cache-test-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    device_ = test::open_test_device();
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
  std::shared_ptr<Device> device_;
};

TEST_F(ProgramCacheTest, MissWritesEntryThenHitLoadsIt) {
  ProgramCache first(dir_);
  EXPECT_EQ(run_add(device_, first.build(device_->context(), device_->device(), kSource, "")), 42);
  EXPECT_EQ(first.stats().misses, 1);
  const fs::path entry = first.entry_path(device_->device(), kSource, "");
  ASSERT_TRUE(fs::exists(entry));

  ProgramCache second(dir_);  // a new process would start like this
  EXPECT_EQ(run_add(device_, second.build(device_->context(), device_->device(), kSource, "")), 42);
  EXPECT_EQ(second.stats().hits, 1);
  EXPECT_EQ(second.stats().misses, 0);
}

TEST_F(ProgramCacheTest, ArgumentNamesComeFromSourceAndFromTheEntry) {
  const std::string source = kSource + "__kernel void two(__global float *dst, int dst_pitch) {}\n";
  const KernelSignatures expected{{"add", {"p", "v"}}, {"two", {"dst", "dst_pitch"}}};
  ProgramCache first(dir_);
  EXPECT_EQ(first.build(device_->context(), device_->device(), source, "").signatures, expected);
  ProgramCache second(dir_);
  const Program loaded = second.build(device_->context(), device_->device(), source, "");
  ASSERT_EQ(second.stats().hits, 1);
  EXPECT_EQ(loaded.signatures, expected);
  const Kernel two = loaded.kernel("two");
  EXPECT_EQ(two.index("dst_pitch"), 1u);
  EXPECT_EQ(two.index("dst", "_pitch"), 1u);
  EXPECT_FALSE(two.has("pitch"));
}

TEST_F(ProgramCacheTest, UnknownKernelsAndArgumentsAreNamed) {
  ProgramCache cache(dir_);
  const Program program = cache.build(device_->context(), device_->device(), kSource, "");
  const auto message = [&](auto&& f) {
    try {
      f();
    } catch (const Error& e) {
      EXPECT_EQ(e.status(), CLVF_ERROR_INTERNAL);
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message([&] { program.kernel("add").set("value", 1); }),
            "kernel add has no argument value (its arguments: p, v)");
  EXPECT_EQ(message([&] { program.kernel("add").set("p", "_offset", 1); }),
            "kernel add has no argument p_offset (its arguments: p, v)");
  EXPECT_EQ(message([&] { program.kernel("sub"); }), "the program has no kernel sub (it has: add)");
}

TEST_F(ProgramCacheTest, OptionsAndSourceAreInTheKey) {
  ProgramCache cache(dir_);
  cache.build(device_->context(), device_->device(), kSource, "");
  cache.build(device_->context(), device_->device(), kSource, "-DX=1");
  cache.build(device_->context(), device_->device(), kSource + "\n", "");
  EXPECT_EQ(cache.stats().misses, 3);
  EXPECT_NE(cache.entry_path(device_->device(), kSource, ""), cache.entry_path(device_->device(), kSource, "-DX=1"));
}

TEST_F(ProgramCacheTest, DamagedEntriesAreRebuiltNotTrusted) {
  ProgramCache cache(dir_);
  cache.build(device_->context(), device_->device(), kSource, "");
  const fs::path entry = cache.entry_path(device_->device(), kSource, "");
  const auto size = fs::file_size(entry);

  const auto damage = [&](auto&& how) {
    how();
    ProgramCache again(dir_);
    EXPECT_EQ(run_add(device_, again.build(device_->context(), device_->device(), kSource, "")), 42);
    EXPECT_EQ(again.stats().rejected, 1);
    EXPECT_EQ(again.stats().hits, 0);
    ProgramCache repaired(dir_);  // the rebuilt entry replaced the damaged one
    repaired.build(device_->context(), device_->device(), kSource, "");
    EXPECT_EQ(repaired.stats().hits, 1);
  };
  damage([&] {  // flipped byte in the binary: checksum mismatch
    std::fstream f(entry, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(size - 10));
    f.put('\x7f');
  });
  damage([&] { fs::resize_file(entry, size / 2); });  // truncated
  damage([&] { std::ofstream(entry, std::ios::trunc) << "garbage"; });
  damage([&] {  // a well-formed entry for another key (e.g. copied from another driver)
    ProgramCache other(dir_);
    other.build(device_->context(), device_->device(), kSource, "-DOTHER");
    fs::copy_file(other.entry_path(device_->device(), kSource, "-DOTHER"), entry, fs::copy_options::overwrite_existing);
  });
}

TEST_F(ProgramCacheTest, UnwritableFolderStillBuilds) {
  std::ofstream(dir_.string()) << "a file where the folder should be";
  ProgramCache cache(dir_ / "sub");
  EXPECT_EQ(run_add(device_, cache.build(device_->context(), device_->device(), kSource, "")), 42);
  fs::remove(dir_);
}

TEST_F(ProgramCacheTest, BuildErrorsCarryTheLog) {
  ProgramCache cache(dir_);
  try {
    cache.build(device_->context(), device_->device(), "__kernel void broken( { }", "");
    FAIL() << "a broken kernel built";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("clBuildProgram: CL_BUILD_PROGRAM_FAILURE"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("build log"), std::string::npos) << e.what();
  }
}

TEST(DeviceOpen, NoMatchListsTheDevices) {
  try {
    Device::open("no-such-device-xyz");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.status(), CLVF_ERROR_NO_DEVICE);
    EXPECT_NE(std::string(e.what()).find("no-such-device-xyz"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("0.0"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace clvf::detail
