// Command mcpgen generates a Go package of types and JSON codecs from the Model Context Protocol
// schema.
//
// Usage:
//
//	mcpgen [-spec version | -schema file] [-pkg name] [-config file] -o dir
//	mcpgen -check [-spec version | -schema file] [-pkg name] [-config file] -o dir
//	mcpgen -diff OLD NEW
//	mcpgen -version
//	mcpgen -lint-spec DIR
//
// It reads an embedded schema.ts (-spec, default draft) or a schema file (-schema: schema.ts,
// or schema.json), and writes the package into the directory -o, which is required. The spec
// version of a schema file, which names the package (mcp20251125) and its SchemaVersion, is told
// from the file: its directory when named like a version (the spec repository's
// schema/<version>/schema.ts), else its LATEST_PROTOCOL_VERSION (schema.ts) or $id (schema.json);
// -spec overrides it. It is shaped for go:generate:
//
//	//go:generate go tool mcpgen -spec 2025-11-25 -o mcp
//
// -config names a configuration file (YAML, or JSON) that shapes the output: the types to
// generate (with everything they reference), their Go names, existing Go types that replace
// some of them, extra initialisms, the package name and doc, and whether the output has
// validators and the runtime; see package github.com/mcpgen/mcpgen/config. -pkg overrides its
// package name.
//
// -diff prints what changes in the Go API from one schema to another (embedded versions or
// files), grouped by type, with the entries of the spec's changelog that name the changes.
//
// -version prints mcpgen's own version and the spec versions it embeds, and exits.
//
// -lint-spec checks a checkout of the spec repository for the contradictions of the spec itself
// (what schema.json loses of schema.ts, examples schema.ts refuses, unions that do not
// discriminate, ...; see docs/lint-spec.md), prints one finding a line, and exits with status 1
// when it finds any.
//
// The output is written atomically: every file is generated in memory first, and a failed run
// leaves the previous files untouched. Generated files that the schema no longer produces (they
// start with the mcpgen header) are removed. With -check nothing is written: mcpgen exits with
// status 1 when the output on disk is stale, names the files and declarations that differ, and
// says what to run: go generate where a go:generate line runs mcpgen for that directory, or the
// same command without -check.
//
// A command line mcpgen cannot run (an unknown flag, a missing -o, stray arguments) prints the
// error and a line that points to -h, and exits with status 2.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/config"
	"github.com/mcpgen/mcpgen/emit"
	"github.com/mcpgen/mcpgen/model"
	"github.com/mcpgen/mcpgen/schema"
)

func main() {
	os.Exit(cli(os.Args[1:], os.Stdout, os.Stderr))
}

// cli runs mcpgen, prints its error, and returns the exit status. A usage error is followed by a
// line that points to -h, rather than by the whole usage.
func cli(args []string, stdout, stderr io.Writer) int {
	err := run(args, stdout, stderr)
	var usage usageError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
	case errors.As(err, &usage):
		fmt.Fprintf(stderr, "mcpgen: %v\nRun 'mcpgen -h' for usage.\n", err)
	case errors.As(err, new(model.ErrorList)):
		// Every mistake of the run, one a line, as editors and go vet list them.
		for line := range strings.SplitSeq(err.Error(), "\n") {
			fmt.Fprintln(stderr, "mcpgen:", line)
		}
	default:
		fmt.Fprintln(stderr, "mcpgen:", err)
	}
	return exitCode(err)
}

// errStale is returned by -check when the output differs from what would be generated.
var errStale = errors.New("stale")

// usageError is a command line that mcpgen cannot run: an unknown flag, a flag without its
// value, a missing -o, arguments where none are taken.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

func exitCode(err error) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errStale), errors.Is(err, errFindings):
		return 1
	}
	return 2
}

// options are the command line's flags.
type options struct {
	spec, schema, out, pkg, config, lintSpec string
	check, diff, version                     bool
}

// newFlagSet returns mcpgen's flag set, which parses into o. It prints nothing: run reports its
// errors, and prints the usage for -h (usage).
func newFlagSet(o *options) *flag.FlagSet {
	fs := flag.NewFlagSet("mcpgen", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.StringVar(&o.spec, "spec", "", "spec `version`: the embedded schema to generate, one of "+strings.Join(schema.Versions, ", ")+
		" (default "+schema.Default+"); with -schema, the version of that file, which is otherwise told from the file")
	fs.StringVar(&o.schema, "schema", "", "schema `file` to read (schema.ts, or schema.json) instead of an embedded one")
	fs.StringVar(&o.out, "o", "", "output `directory` (required): where the package is written, or checked with -check")
	fs.StringVar(&o.pkg, "pkg", "", "Go package `name`; default: mcp followed by the version without dashes (mcpdraft, mcp20251125)")
	fs.BoolVar(&o.check, "check", false, "write nothing; exit 1 if the files in -o differ from what would be generated, and say how")
	fs.StringVar(&o.config, "config", "", "configuration `file` (YAML or JSON) that shapes the output: types to generate, renames,\nsubstitutes, initialisms, package doc, validators and runtime (see docs/configuration.md)")
	fs.StringVar(&o.lintSpec, "lint-spec", "", "check the spec repository checked out in `dir` for contradictions of the spec itself\n(see docs/lint-spec.md); exit 1 if it finds any")
	fs.BoolVar(&o.diff, "diff", false, "print the Go API changes from schema OLD to schema NEW (the arguments: each an\nembedded version or a schema file), with the spec changelog's entries that name them")
	fs.BoolVar(&o.version, "version", false, "print mcpgen's version and the spec versions it embeds, and exit")
	return fs
}

// usage prints the whole usage of mcpgen, for -h.
func usage(fs *flag.FlagSet, w io.Writer) {
	fmt.Fprintf(w, `mcpgen %s generates Go types and JSON codecs from the Model Context Protocol schema.

Usage:
  mcpgen [-spec version | -schema file] [-pkg name] [-config file] -o dir
  mcpgen -check [-spec version | -schema file] [-pkg name] [-config file] -o dir
  mcpgen -diff OLD NEW
  mcpgen -lint-spec DIR
  mcpgen -version

Examples:
  mcpgen -o ./mcpdraft                              # the embedded draft schema
  mcpgen -spec 2025-11-25 -o ./mcp                  # another embedded version
  mcpgen -schema path/to/2025-11-25/schema.ts -o ./mcp   # version told from the file
  mcpgen -check -spec 2025-11-25 -o ./mcp           # exit 1 if ./mcp is stale
  mcpgen -config mcpgen.yaml -o ./mcp               # selected, renamed, substituted types
  mcpgen -diff 2025-11-25 2026-07-28                # what a spec update changes in Go
  mcpgen -lint-spec ../modelcontextprotocol         # the spec's own contradictions

Flags:
`, emit.Version)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// run runs mcpgen with the command-line arguments args.
func run(args []string, stdout, stderr io.Writer) error {
	var o options
	fs := newFlagSet(&o)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(fs, stderr)
			return err
		}
		return usageError{err}
	}
	switch {
	case o.version:
		if fs.NArg() > 0 || o != (options{version: true}) {
			return versionMisuse(fs.Args())
		}
		fmt.Fprint(stdout, versionText(readBuildInfo()))
		return nil
	case o.diff:
		if fs.NArg() != 2 || o != (options{diff: true}) {
			return usagef("-diff takes two schemas, OLD and NEW (embedded versions or schema files), and no other flag")
		}
		return runDiff(fs.Arg(0), fs.Arg(1), stdout)
	case o.lintSpec != "":
		if fs.NArg() > 0 || o != (options{lintSpec: o.lintSpec}) {
			return usagef("-lint-spec takes the directory of a spec repository checkout, and no other flag or argument")
		}
		return runLint(o.lintSpec, stdout, stderr)
	case fs.NArg() > 0:
		return usagef("unexpected arguments %q", fs.Args())
	}
	return generate(o, args, stderr)
}

// generate generates the package that o asks for, and writes it to its output directory or,
// with -check, compares it with the files there. args are the command-line arguments, for
// -check to repeat.
func generate(o options, args []string, stderr io.Writer) error {
	if o.out == "" {
		return usagef("no output directory: pass -o with the directory of the package (mcpgen -o ./mcp)")
	}
	if o.pkg != "" && !config.ValidPackageName(o.pkg) {
		return usagef("-pkg %q is not a valid Go package name (an identifier that is not a keyword or _)", o.pkg)
	}
	if o.schema == "" && o.spec != "" && !slices.Contains(schema.Versions, o.spec) {
		return usagef("-spec %q is not an embedded spec version (those are %s); pass -schema to read a schema file",
			o.spec, strings.Join(schema.Versions, ", "))
	}
	cfg := &config.File{}
	// errs are the configuration's mistakes: those of its entries that Parse skips come with
	// those that the schema shows in the others, and nothing is written.
	var errs model.ErrorList
	if o.config != "" {
		data, err := os.ReadFile(o.config)
		if err != nil {
			return err
		}
		cfg, err = config.Parse(o.config, data)
		if cfg == nil {
			return err
		}
		errs.Add(err)
		if o.pkg == "" {
			o.pkg = cfg.Package
		}
	}
	in, err := openInput(o.schema, o.spec)
	if err != nil {
		return err
	}
	in.cfg = cfg
	if err := in.load(); err != nil {
		errs.Add(err)
		return errs.Err()
	}
	if o.pkg == "" {
		o.pkg = packageFor(in.version)
		if !config.ValidPackageName(o.pkg) {
			return fmt.Errorf("the default package name %q (from version %q) is not a valid Go package name; pass -pkg", o.pkg, in.version)
		}
	}

	config.SubstituteKinds(&cfg.Config, o.out)
	config.HandWritten(&cfg.Config, o.out)
	var notes []string
	in.report = func(msg string) { notes = append(notes, msg) }
	files, err := in.generate(o.pkg, cfg)
	if err != nil {
		errs.Add(err)
		return errs.Err()
	}
	errs.Add(config.CheckSubstitutes(cfg.Config, o.out, func(name string) bool { return files[name] != nil }, files))
	if err := errs.Err(); err != nil {
		return err
	}
	for _, n := range notes {
		// What the configuration leaves out of the hand-written parts: not an error, but
		// nothing else would say it.
		if o.config != "" {
			n = o.config + ": " + n
		}
		fmt.Fprintln(stderr, "mcpgen: note:", n)
	}
	prefix := cfg.Config.FilePrefix
	if o.check {
		stale, err := diff(o.out, prefix, files)
		if err != nil {
			return err
		}
		if len(stale) > 0 {
			return staleError(o.out, in.describe(), files, stale, args)
		}
		return nil
	}
	return write(o.out, prefix, files)
}
