package validation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpgen/mcpgen/interop/internal/schemaref"
)

// outcome is the verdict of the reference and of the generated package on one mutant.
type outcome struct {
	file string // the example, "<Type>/<name>.json"
	mutant
	refErr error // nil: the reference accepts
	// oursErr is nil when the package accepts: the document decodes into the Go type and
	// Validate, when the value has it, returns nil.
	oursErr     error
	hasValidate bool  // the decoded value has a Validate method
	panicked    bool  // decoding, Validate or encoding panicked (oursErr says where)
	reencodeErr error // the package and the reference accept, and json.Marshal of the value fails or is rejected
}

// The directions of a disagreement.
const (
	weAccept = "we-accept" // the package accepts what the reference rejects
	weReject = "we-reject" // the package rejects what the reference accepts
	reencode = "reencode"  // both accept, but the reference rejects the package's re-encoding
)

// disagreement returns the direction of the disagreement, or "" when the package and the
// reference agree.
func (o *outcome) disagreement() string {
	switch {
	case o.oursErr == nil && o.refErr != nil:
		return weAccept
	case o.oursErr != nil && o.refErr == nil:
		return weReject
	case o.reencodeErr != nil:
		return reencode
	}
	return ""
}

// key names a disagreement in the listing: its direction, the mutation kind and the schema rule
// aimed at. Every mutant with the same key shares one line, and one reason.
func (o *outcome) key() string {
	return o.disagreement() + " " + o.kind + " " + o.rule
}

// result is the differential run of one package.
type result struct {
	version, path string
	examples      []string          // the examples run, "<Type>/<name>.json"
	notApplicable map[string]string // examples left out, with the reason
	outcomes      []outcome
}

// runPackage runs every mutant of every example of p's version against the reference and the
// package. schemaDir is the repository's schema/ directory.
func runPackage(p genPackage, schemaDir string) (*result, error) {
	data, err := os.ReadFile(filepath.Join(schemaDir, p.version, "schema.json"))
	if err != nil {
		return nil, err
	}
	ref, err := schemaref.New(data)
	if err != nil {
		return nil, fmt.Errorf("%s/schema.json: %w", p.version, err)
	}
	res := &result{version: p.version, path: p.path, notApplicable: map[string]string{}}

	// The version's own examples; for a version without, the draft's that its schema.json
	// accepts (the versions are close enough that most apply).
	dir := filepath.Join(schemaDir, p.version, "examples")
	own := true
	if _, err := os.Stat(dir); err != nil {
		dir, own = filepath.Join(schemaDir, "draft", "examples"), false
	}
	files, err := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no examples in %s", dir)
	}
	slices.Sort(files)
	for _, file := range files {
		typ := filepath.Base(filepath.Dir(file))
		rel := typ + "/" + filepath.Base(file)
		raw, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", rel, err)
		}
		root := ref.Defs() + typ
		if ref.Node(root) == nil {
			if own {
				return nil, fmt.Errorf("%s: %s has no definition %s", rel, p.version, typ)
			}
			res.notApplicable[rel] = "the version has no definition " + typ
			continue
		}
		if !own {
			if err := ref.Validate(root, inst); err != nil {
				res.notApplicable[rel] = "the version's schema.json rejects it"
				continue
			}
		}
		dec, ok := p.decoders[typ]
		if !ok {
			return nil, fmt.Errorf("%s: no decoder for %s in %s: %s", rel, typ, p.path, p.undecodable[typ])
		}
		ms, err := mutants(ref, root, inst)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", rel, err)
		}
		ms[0].data = raw // the example as written, not re-encoded
		res.examples = append(res.examples, rel)
		for _, m := range ms {
			o := outcome{file: rel, mutant: m, refErr: ref.Validate(root, m.doc)}
			o.judge(dec, ref, root)
			res.outcomes = append(res.outcomes, o)
		}
	}
	return res, nil
}

// validator is the Validate method the generator writes on every struct, union variant and closed
// string type.
type validator interface{ Validate() error }

// judge decodes the mutant with the package, calls Validate when the value has it, and when both
// accept, checks the re-encoded value with the reference.
func (o *outcome) judge(dec decoder, ref *schemaref.Reference, root string) {
	defer func() {
		if p := recover(); p != nil {
			o.panicked = true
			o.oursErr = fmt.Errorf("panic: %v", p)
		}
	}()
	v, err := dec(o.data)
	if err != nil {
		o.oursErr = fmt.Errorf("decode: %w", err)
		return
	}
	if val, ok := v.(validator); ok {
		o.hasValidate = true
		if err := val.Validate(); err != nil {
			o.oursErr = fmt.Errorf("validate: %w", err)
			return
		}
	}
	if o.refErr != nil {
		return // a disagreement already; its re-encoding says nothing more
	}
	out, err := json.Marshal(v)
	if err != nil {
		o.reencodeErr = fmt.Errorf("json.Marshal: %w", err)
		return
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	if err != nil {
		o.reencodeErr = fmt.Errorf("re-encoded JSON does not parse: %w", err)
		return
	}
	if err := ref.Validate(root, inst); err != nil {
		o.reencodeErr = fmt.Errorf("the reference rejects the re-encoded %s: %w", out, err)
	}
}

// counts is one row of the agreement table.
type counts struct {
	mutants, bothReject, bothAccept, weAccept, weReject, reencode, noValidate, panics int
}

func (c *counts) add(o *outcome) {
	c.mutants++
	switch d := o.disagreement(); {
	case d == weAccept:
		c.weAccept++
	case d == weReject:
		c.weReject++
	case o.oursErr != nil:
		c.bothReject++
	default:
		c.bothAccept++
	}
	if o.reencodeErr != nil {
		c.reencode++
	}
	if o.oursErr == nil && !o.hasValidate {
		c.noValidate++
	}
	if o.panicked {
		c.panics++
	}
}

// total returns the counts of every outcome, and the number of outcomes whose value had a
// Validate method.
func (r *result) total() (c counts, validated int) {
	for i := range r.outcomes {
		c.add(&r.outcomes[i])
		if r.outcomes[i].hasValidate {
			validated++
		}
	}
	return c, validated
}

// table writes the agreement per mutation kind.
func (r *result) table() string {
	byKind := map[string]*counts{}
	var total counts
	for i := range r.outcomes {
		o := &r.outcomes[i]
		if byKind[o.kind] == nil {
			byKind[o.kind] = &counts{}
		}
		byKind[o.kind].add(o)
		total.add(o)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "MCP %s (%s): %d mutants of %d examples (%d left out): both reject %d, both accept %d, "+
		"we accept/reference rejects %d, we reject/reference accepts %d, re-encoding rejected %d; "+
		"%d accepted values have no Validate method\n",
		r.version, r.path, total.mutants, len(r.examples), len(r.notApplicable), total.bothReject, total.bothAccept,
		total.weAccept, total.weReject, total.reencode, total.noValidate)
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "kind\tmutants\tboth reject\tboth accept\twe accept/ref rejects\twe reject/ref accepts\tre-encoding rejected\tno Validate\t")
	row := func(name string, c *counts) {
		fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t\n", name, c.mutants, c.bothReject, c.bothAccept, c.weAccept, c.weReject, c.reencode, c.noValidate)
	}
	for _, k := range slices.Sorted(maps.Keys(byKind)) {
		row(k, byKind[k])
	}
	row("all", &total)
	w.Flush()
	return b.String()
}
