// Package consumertest tests the repository as its users get it: the gen module and the
// generator fetched as modules, by go get, go install and go get -tool, from a module proxy the
// tests build from the repository (a file:// GOPROXY), in fresh modules outside the repository.
//
// TestGenFromModuleCache builds, vets and tests the gen packages from the module cache with the
// oldest Go toolchain that gen/go.mod allows; TestREADME runs the commands of the README and of
// the docs/ pages as written; TestGenerateWithConfig generates an SDK's package (testdata/mysdk)
// with go generate and configuration files, compares it with testdata/mysdk.golden (-update
// rewrites it) and runs the module's tests. They build packages from scratch, so they take a while;
// -short skips them.
package consumertest
