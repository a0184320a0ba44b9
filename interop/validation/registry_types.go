package validation

import "encoding/json"

//go:generate go run ./internal/registrygen

// genPackage is one package of gen/ in the registry (registry.go, written by registrygen).
type genPackage struct {
	version string // the spec version, the package's SchemaVersion
	path    string // the import path
	// decoders maps a schema definition name to the function that decodes JSON into a new value
	// of its Go type.
	decoders map[string]decoder
	// undecodable maps the definitions that have no decoder to the reason.
	undecodable map[string]string
}

// decoder decodes one JSON document into a new Go value of the package: a pointer to a struct,
// map, slice or string type, or the variant a union's UnmarshalX chose.
type decoder func(data []byte) (any, error)

// decodeInto decodes with json.Unmarshal into a new T and returns the *T.
func decodeInto[T any](data []byte) (any, error) {
	v := new(T)
	if err := json.Unmarshal(data, v); err != nil {
		return nil, err
	}
	return v, nil
}

// decodeUnion wraps a union's generated UnmarshalX, which picks the variant.
func decodeUnion[T any](unmarshal func([]byte) (T, error)) decoder {
	return func(data []byte) (any, error) {
		v, err := unmarshal(data)
		if err != nil {
			return nil, err
		}
		return v, nil
	}
}
