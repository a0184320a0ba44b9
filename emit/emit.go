package emit

import (
	"bytes"
	"fmt"
	"go/format"
	"maps"
	"strings"
	"text/template"

	"github.com/dave/jennifer/jen"

	"github.com/mcpgen/mcpgen/model"
)

// Options configure Generate.
type Options struct {
	Package    string            // Go package name, e.g. "mcpdraft"
	Version    string            // spec version, e.g. "draft"
	SchemaHash string            // "sha256:<hex>" of the schema file, recorded in doc.go
	Source     string            // where the schema file came from, recorded in doc.go if set (may span lines)
	Runtime    map[string]string // the runtime's source files by name (templates.Runtime()); their package clauses are replaced
	// Parts are hand-written files that use generated types, by file name (templates.Parts()),
	// copied like the runtime into packages whose schema declares every type a file's
	// "//mcpgen:requires" lines name. A part's `validateRules(*validator)` method on a type is
	// called by the type's generated validate.
	Parts map[string]string
	// PackageDoc is the text/template of the package doc in doc.go (templates/doc.go.tmpl),
	// executed with the fields Package and Version, Protocol and ResultResponse (the protocol
	// layer and the name of its result response), Sampling (the rules of sampling with tools)
	// and CheckCapabilities (the capability check of sampling); empty for a doc.go without
	// package doc.
	PackageDoc string
	// Config shapes the output: selection, names, substitutes, what is left out.
	Config Config
	// Report, if set, is told what the output leaves out that the schema has: a part (see
	// Parts) for which the configuration generates some of the declarations it requires but not
	// all ("left out sampling_capabilities.go (CreateMessageRequestParams.CheckCapabilities): it
	// needs ClientCapabilities, which is not generated").
	Report func(msg string)
}

// Generate returns the files of the Go package for s, by file name, every one gofmt-formatted:
// types.go, json.go, unions.go, consts.go, the runtime's files and doc.go (the package doc, and the
// schema's version and hash). s must be classified (model.Classify). An error names the
// declaration at fault and its position.
func Generate(s *model.Schema, opts Options) (map[string][]byte, error) {
	if opts.Package == "" {
		return nil, fmt.Errorf("emit: no package name")
	}
	p, runtime, err := makePlan(s, opts)
	if err != nil {
		return nil, err
	}

	// Rendering: the plan written out, file by file.
	r := newRenderer(p)
	r.render()
	out := runtime
	doc, err := p.packageDoc()
	if err != nil {
		return nil, err
	}
	out["doc.go"] = doc
	files := []struct {
		name string
		f    *jen.File
	}{{"types.go", r.typesGo}, {"json.go", r.jsonGo}, {"unions.go", r.unionsGo}, {"consts.go", r.constsGo}}
	if !opts.Config.NoValidate {
		files = append(files, struct {
			name string
			f    *jen.File
		}{"validate.go", r.validateGo})
	}
	if p.proto != nil {
		files = append(files, struct {
			name string
			f    *jen.File
		}{"protocol.go", r.protocolGo})
	}
	for _, file := range files {
		if _, dup := out[file.name]; dup {
			return nil, fmt.Errorf("emit: the runtime file %s has the name of a generated file", file.name)
		}
		var buf bytes.Buffer
		if err := file.f.Render(&buf); err != nil {
			// jennifer's error holds the whole unformatted file after its first line: keep the
			// first line only, shortened.
			msg, _, _ := strings.Cut(err.Error(), "\n")
			if len(msg) > model.MaxMessage {
				msg = strings.ToValidUTF8(msg[:model.MaxMessage], "") + "…"
			}
			return nil, fmt.Errorf("emit: %s: %s", file.name, msg)
		}
		out[file.name] = buf.Bytes()
	}
	if p := opts.Config.FilePrefix; p != "" {
		prefixed := map[string][]byte{}
		for name, data := range out {
			prefixed[p+name] = data
		}
		out = prefixed
	}
	return out, nil
}

// makePlan is the planning step: it plans every name and declaration of the output, and
// checks them, before anything is written. It returns the plan, and the runtime's and the
// parts' files as copied into the package.
func makePlan(s *model.Schema, opts Options) (*plan, map[string][]byte, error) {
	g := newGenerator(s, opts)
	runtime, err := g.runtime()
	if err != nil {
		return nil, nil, err
	}
	if err := g.scope.declare(g.schemaVersionName(), "the generated constant", opts.Config.Names["SchemaVersion"].Pos); err != nil {
		return nil, nil, err
	}
	if err := g.planDecls(); err != nil {
		return nil, nil, err
	}
	g.proto = g.planProtocol()
	parts, err := g.parts()
	if err != nil {
		return nil, nil, err
	}
	maps.Copy(runtime, parts)
	if err := g.declareNames(); err != nil {
		return nil, nil, err
	}
	return g.plan, runtime, nil
}

func newGenerator(s *model.Schema, opts Options) *generator {
	return &generator{
		plan: &plan{
			s:           s,
			opts:        opts,
			byDecl:      map[string]*typeDecl{},
			byName:      map[string]*typeDecl{},
			rules:       map[string]bool{},
			checked:     map[string]bool{},
			nullUnions:  map[string]bool{},
			copiedParts: map[string]bool{},
		},
		scope:           scope{},
		after:           map[string][]*typeDecl{},
		inlines:         map[inlineKey]*typeDecl{},
		usedNames:       map[string]bool{},
		usedFields:      map[string]bool{},
		usedSubstitutes: map[string]bool{},
		referenced:      map[string]bool{},
	}
}

// plan is what planning produces and the only thing rendering reads: every Go declaration of
// the output with its name, how unions decode, which types have checks, the protocol layer, the
// constants' names, and the parts the output has. Planning (generator) fills it in and checks
// it; a renderer only reads it.
type plan struct {
	s    *model.Schema
	opts Options

	// types are the Go declarations in output order; byDecl finds them by schema declaration
	// name, byName by Go name. rules lists the types that have hand-written validation rules
	// (Options.Parts).
	types  []*typeDecl
	byDecl map[string]*typeDecl
	byName map[string]*typeDecl
	rules  map[string]bool
	// checked remembers which unions and collections have validation checks (namedChecks).
	checked map[string]bool
	// nullUnions are the Go names of the unions some nullable member has (planNullVariants).
	nullUnions map[string]bool
	// proto is the protocol layer of the schema, nil for a schema without one.
	proto *protocolPlan
	// constNames are the Go names of the schema's constants (declareNames).
	constNames map[*model.Const]string
	// names makes Go names, with the configuration's initialisms.
	names namer
	// copiedParts are the parts (Options.Parts) the output has, by file name.
	copiedParts map[string]bool
}

// generator is the planning step of one Generate call: it fills in its plan, holding the
// working state that planning needs and rendering does not.
type generator struct {
	*plan
	scope scope

	// after lists, for each schema declaration, its Go declaration and the inline types
	// declared after it; inlines finds inline types by position.
	after   map[string][]*typeDecl
	inlines map[inlineKey]*typeDecl

	// selected are the declarations a configuration selects, with everything they reference;
	// nil selects every declaration. substitutes are the Go types that replace declarations,
	// memberSubstitutes those that replace members' types, by member and declaration;
	// memberRoots are the members whose types are roots without their declarations.
	selected          map[string]bool
	substitutes       map[string]*goType
	memberSubstitutes map[*model.Member]map[*model.Decl]*goType
	memberRoots       []memberRoot
	// usedNames, usedFields and usedSubstitutes record the member entries of the configuration
	// that named a type or a field, or replaced a type; referenced, the substituted declarations
	// that something refers to (checkConfigUsed).
	usedNames, usedFields, usedSubstitutes, referenced map[string]bool
}

// FilesLine is the line of the doc.go of an output with a file prefix (Config.FilePrefix) that
// records it: "Files: ext_*.go.", after the "// " of a comment. A command that writes outputs
// into a directory tells from it which files another output owns.
func FilesLine(prefix string) string {
	return "Files: " + prefix + "*.go."
}

// Version is the version of the generator, named in the header of every generated file. It is a
// constant, not the build's version control stamp, so that the output (and the checked-in gen/)
// does not depend on how mcpgen was built; it is set to the release's tag (vX.Y.Z) when the
// github.com/mcpgen/mcpgen module is released (see the README).
const Version = "v0.1.0"

// header is the first line of every generated file. It matches the pattern that Go tools use to
// recognize generated files (^// Code generated .* DO NOT EDIT\.$).
const header = "Code generated by mcpgen " + Version + ". DO NOT EDIT."

// headerText is the header as a Go comment, followed by a blank line. Only the header: the files
// that do not depend on the schema (the runtime) stay the same when the schema changes, and the
// schema's version and hash are recorded once, in doc.go (sourceText).
func (g *plan) headerText() string {
	return "// " + header + "\n\n"
}

// sourceLines are the lines of doc.go that record the schema the package was generated from: its
// version and content hash, and where it came from, if known.
func (g *plan) sourceLines() []string {
	lines := []string{fmt.Sprintf("Schema: MCP %s (%s).", g.opts.Version, g.opts.SchemaHash)}
	if g.opts.Source != "" {
		lines = append(lines, strings.Split("Source: "+g.opts.Source+".", "\n")...)
	}
	if p := g.opts.Config.FilePrefix; p != "" {
		lines = append(lines, FilesLine(p))
	}
	return lines
}

func (g *plan) newFile() *jen.File {
	f := jen.NewFile(g.opts.Package)
	f.HeaderComment(header)
	return f
}

// renderer writes a plan out with jennifer: its methods (render*.go) read the plan and fill its
// files, and decide nothing that can fail.
type renderer struct {
	*plan
	typesGo, jsonGo, unionsGo, constsGo, validateGo, protocolGo *jen.File
	// enumConsts are the constant blocks of the enum types, for the end of consts.go.
	enumConsts []jen.Code
	// accessorTypes are the types given message accessors (protocol.go).
	accessorTypes map[string]bool
}

// newRenderer returns a renderer of p with its files empty.
func newRenderer(p *plan) *renderer {
	return &renderer{plan: p, typesGo: p.newFile(), jsonGo: p.newFile(), unionsGo: p.newFile(),
		constsGo: p.newFile(), validateGo: p.newFile(), protocolGo: p.newFile(), accessorTypes: map[string]bool{}}
}

// render writes every planned declaration into its file. It only reads the plan: the names it
// writes were declared, and checked, by planDecls and declareNames.
func (g *renderer) render() {
	for _, td := range g.types {
		switch td.form {
		case structForm:
			g.structType(td)
			g.structCodec(td)
		case aliasForm:
			g.aliasType(td)
		case enumForm:
			g.enumType(td)
		case collectionForm:
			g.collectionType(td)
		case interfaceForm:
			g.interfaceType(td)
		case oneOrManyForm:
			g.oneOrManyType(td)
		case wrapperForm:
			g.wrapperType(td)
		case unknownForm:
			g.unknownType(td)
		}
		if !g.opts.Config.NoValidate {
			g.validateMethods(td)
		}
	}
	g.results()
	g.protocol()
	g.constants()
}

// packageDoc writes doc.go: the header, the schema the package comes from, and the package clause
// with Options.PackageDoc executed as its doc.
func (g *plan) packageDoc() ([]byte, error) {
	text := g.opts.PackageDoc
	if text == "" {
		text = "package {{.Package}}\n"
	}
	tmpl, err := template.New("doc.go").Parse(text)
	if err != nil {
		return nil, fmt.Errorf("emit: package doc: %v", err)
	}
	var buf bytes.Buffer
	buf.WriteString("// " + header + "\n")
	for _, l := range g.sourceLines() {
		buf.WriteString("// " + l + "\n")
	}
	buf.WriteString("\n")
	data := struct {
		Package, Version string
		// Protocol is set when the package has the protocol layer (protocol.go), and
		// ResultResponse names its result response; Sampling is set when the package has the
		// rules of sampling with tools, CheckCapabilities when it has the check of a sampling
		// request against the client's capabilities.
		Protocol          bool
		ResultResponse    string
		Sampling          bool
		CheckCapabilities bool
	}{Package: g.opts.Package, Version: g.opts.Version, Protocol: g.proto != nil,
		Sampling: g.copiedParts["sampling.go"], CheckCapabilities: g.copiedParts["sampling_capabilities.go"]}
	if g.proto != nil {
		data.ResultResponse = g.proto.resultResponse.name
	}
	if err := tmpl.Execute(&buf, data); err != nil {
		return nil, fmt.Errorf("emit: package doc: %v", err)
	}
	out, err := format.Source(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("emit: package doc: %v", err)
	}
	return out, nil
}
