// Package validation is the differential test of the generated packages' validation against a
// real JSON Schema validator: decode+Validate of every package of gen/ must reject exactly the
// documents that github.com/santhosh-tekuri/jsonschema/v6 rejects under the version's schema.json, on every example of the spec and on invalid variants made from them.
//
// # The two sides
//
// The reference (internal/schemaref, shared with the traffic test) validates a document against
// #/$defs/<Type> (or #/definitions/<Type>) of schema/<version>/schema.json, with format
// assertions on; what the formats uri, uri-template and byte mean is documented there and pinned
// by its TestFormatChoices.
//
// The package decodes the same bytes into the Go type of <Type> (json.Unmarshal into a new
// value, or the union's UnmarshalX), then calls its Validate() error. The registry from schema
// type names to Go decoders, registry.go, is written by internal/registrygen from the packages
// themselves (go/types) and their schema.json, for every package of gen/ (a directory declaring SchemaVersion); TestRegistryUpToDate fails when it is
// stale (go generate in this directory rewrites it).
//
// # Examples and mutants
//
// The examples are schema/<version>/examples, or for a version without its own, the draft
// examples whose type the version declares and that its schema.json accepts. From each example,
// mutate.go walks the instance together with the schema ($ref, allOf, and the anyOf branches the
// value matches) and makes one variant per rule stated at each place: a required member dropped,
// a const or discriminator changed, a value of a wrong JSON kind or null, a number out of
// minimum/maximum, a non-integer where only integers are allowed, a string outside a closed enum,
// an invalid uri, uri-template or base64 string, an array grown past maxItems (and minItems,
// minLength, maxLength, exclusive bounds where a schema states them). Two kinds of variant are
// valid by the schema, to catch a decoder stricter than it: an integer written n.0, and 2^63.
// The example itself is kept. Every value the package accepts is encoded again with
// json.Marshal, and the reference must accept that too (when it accepted the input).
//
// # Disagreements
//
// TestDifferential logs, per version and mutation kind, how many mutants both reject, both
// accept, only the package accepts, and only the reference accepts (go test -v). A disagreement
// is named by its direction, mutation kind and the schema location of the rule
// ("we-accept enum #/$defs/Role/enum"); all the mutants with one name share a line of
// testdata/disagreements-<version>.txt, which must give its reason. The test fails on a
// disagreement that is not listed, on one listed with a reason starting with TODO, and on a listed
// one that no longer occurs; -update rewrites the files, keeping the reasons and marking new
// lines "TODO: reason"; -explain logs one mutant of each disagreement with both verdicts.
// A panic in decoding, Validate or encoding always fails, and so does a run in which no mutant
// reached Validate.
package validation
