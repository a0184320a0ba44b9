package main

// The schema to generate from: an embedded version or a file, parsed, its version told, and
// generated into files in memory.

import (
	"crypto/sha256"
	"fmt"
	"os"

	"github.com/mcpgen/mcpgen/config"
	"github.com/mcpgen/mcpgen/emit"
	"github.com/mcpgen/mcpgen/model"
	"github.com/mcpgen/mcpgen/schema"
	"github.com/mcpgen/mcpgen/templates"
)

// input is a schema to generate from: an embedded one or a file.
type input struct {
	name     string // the file, or "<version>/schema.ts" for an embedded schema
	src      []byte
	embedded bool
	version  string // "" until load tells it from the file
	how      string // how the version was decided, for messages: "from its directory"
	schema   *model.Schema
	// report, if set, is told what the output leaves out (emit.Options.Report).
	report func(msg string)
	// cfg, if set, is the configuration, which can add declarations to the schema (load).
	cfg *config.File
}

// openInput reads the schema file, or the embedded schema.ts of version (default: the draft).
// version, if set, is the version of the file.
func openInput(file, version string) (*input, error) {
	if file == "" {
		if version == "" {
			version = schema.Default
		}
		name, src, err := schema.File(version, "schema.ts")
		if err != nil {
			return nil, err
		}
		return &input{name: name, src: src, embedded: true, version: version}, nil
	}
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	in := &input{name: file, src: src}
	if version != "" {
		in.version, in.how = version, "from -spec"
	}
	return in, nil
}

// load parses the schema and prepares it (model.Protocol, model.Classify), with what the
// configuration adds (config.File.Load), then, unless it is known, tells its version from the
// file (detectVersion): a schema error comes first.
func (in *input) load() error {
	cfg := in.cfg
	if cfg == nil {
		cfg = &config.File{}
	}
	s, err := cfg.Load(in.name, in.src)
	if err != nil {
		return err
	}
	if in.version == "" {
		if in.version, in.how, err = detectVersion(in.name, in.src, s); err != nil {
			return err
		}
	}
	s.Version = in.version
	in.schema = s
	return nil
}

// describe names the schema for messages.
func (in *input) describe() string {
	if in.embedded {
		return "the embedded " + in.version + " schema"
	}
	return fmt.Sprintf("%s (MCP %s, %s)", in.name, in.version, in.how)
}

// generate returns the files of package pkg generated from the loaded schema, by name, shaped by
// the configuration cfg.
func (in *input) generate(pkg string, cfg *config.File) (map[string][]byte, error) {
	if in.schema == nil {
		if err := in.load(); err != nil {
			return nil, err
		}
	}
	source := ""
	if in.embedded {
		source = "github.com/modelcontextprotocol/modelcontextprotocol/schema/" + in.name + "\n" +
			"at commit " + schema.SourceCommit
	}
	return emit.Generate(in.schema, emit.Options{
		Package:    pkg,
		Version:    in.version,
		SchemaHash: fmt.Sprintf("sha256:%x", sha256.Sum256(in.src)),
		Source:     source,
		Runtime:    templates.Runtime(),
		Parts:      templates.Parts(),
		PackageDoc: cfg.PackageDoc(),
		Config:     cfg.Config,
		Report:     in.report,
	})
}
