package bench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/go-faster/jx"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpgen/mcpgen/gen/mcp20251125"
	"github.com/mcpgen/mcpgen/gen/mcpdraft"
	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A Contender is a set of Go types for the corpora's messages, measured against the others.
type Contender struct {
	// Name is the benchmark name of the contender.
	Name string
	// Module is the module that holds the types, whose version the tables report; "" for the
	// standard library.
	Module string
	// Spec is the spec version of the types: a corpus that this version's schema.json does not
	// accept is not given to them. "" for the SDKs, whose types follow several versions at once.
	Spec string
	// DecodeOnly is set for another way of decoding into the types of another contender: it has
	// no encode benchmarks of its own (it would time the same code again).
	DecodeOnly bool
	codecs     map[Type]Codec
}

// Codec returns the contender's codec for a type, if it has a type for it.
func (c Contender) Codec(t Type) (Codec, bool) {
	codec, ok := c.codecs[t]
	return codec, ok
}

// A Codec decodes documents into one Go type and encodes values of it.
type Codec struct {
	// GoType names the Go type ("mcpdraft.ListToolsResult").
	GoType string
	// Decode decodes a document into a new value (a pointer to it), and validates it when the
	// type has a Validate method.
	Decode func(data []byte) (any, error)
	// Encode encodes a value that Decode returned.
	Encode func(v any) ([]byte, error)
	// Validates says whether the type has a `Validate() error` method, which Decode calls.
	Validates bool
}

// Contenders returns the contenders, in the order of the tables.
//
// Each SDK is given the type it offers for the message; where it offers two, the one that can
// hold the spec's tool use: go-sdk's CreateMessageWithToolsParams and CreateMessageWithToolsResult
// (its CreateMessageParams and CreateMessageResult take one content block per message).
func Contenders() []Contender {
	return []Contender{
		{Name: "mcpgen-draft", Module: "github.com/mcpgen/mcpgen/gen", Spec: "draft", codecs: map[Type]Codec{
			//lint:ignore SA1019 sampling is deprecated in the draft, and still in it
			CreateMessageRequestParams: codecOf[mcpdraft.CreateMessageRequestParams](),
			//lint:ignore SA1019 as above
			CreateMessageResult: codecOf[mcpdraft.CreateMessageResult](),
			ListToolsResult:     codecOf[mcpdraft.ListToolsResult](),
			CallToolResult:      codecOf[mcpdraft.CallToolResult](),
		}},
		{Name: "mcpgen-draft-nocopy", Module: "github.com/mcpgen/mcpgen/gen", Spec: "draft", DecodeOnly: true, codecs: map[Type]Codec{
			//lint:ignore SA1019 as above
			CreateMessageRequestParams: noCopyCodecOf[mcpdraft.CreateMessageRequestParams](),
			//lint:ignore SA1019 as above
			CreateMessageResult: noCopyCodecOf[mcpdraft.CreateMessageResult](),
			ListToolsResult:     noCopyCodecOf[mcpdraft.ListToolsResult](),
			CallToolResult:      noCopyCodecOf[mcpdraft.CallToolResult](),
		}},
		{Name: "mcpgen-2025-11-25", Module: "github.com/mcpgen/mcpgen/gen", Spec: "2025-11-25", codecs: map[Type]Codec{
			CreateMessageRequestParams: codecOf[mcp20251125.CreateMessageRequestParams](),
			CreateMessageResult:        codecOf[mcp20251125.CreateMessageResult](),
			ListToolsResult:            codecOf[mcp20251125.ListToolsResult](),
			CallToolResult:             codecOf[mcp20251125.CallToolResult](),
		}},
		{Name: "go-sdk", Module: "github.com/modelcontextprotocol/go-sdk", codecs: map[Type]Codec{
			//lint:ignore SA1019 the sampling types are deprecated with sampling itself, and still the SDK's API for it
			CreateMessageRequestParams: codecOf[gosdk.CreateMessageWithToolsParams](),
			//lint:ignore SA1019 as above
			CreateMessageResult: codecOf[gosdk.CreateMessageWithToolsResult](),
			ListToolsResult:     codecOf[gosdk.ListToolsResult](),
			CallToolResult:      codecOf[gosdk.CallToolResult](),
		}},
		{Name: "mcp-go", Module: "github.com/mark3labs/mcp-go", codecs: map[Type]Codec{
			CreateMessageRequestParams: codecOf[mcpgo.CreateMessageParams](),
			CreateMessageResult:        codecOf[mcpgo.CreateMessageResult](),
			ListToolsResult:            codecOf[mcpgo.ListToolsResult](),
			CallToolResult:             codecOf[mcpgo.CallToolResult](),
		}},
		{Name: "map", codecs: map[Type]Codec{
			CreateMessageRequestParams: codecOf[map[string]any](),
			CreateMessageResult:        codecOf[map[string]any](),
			ListToolsResult:            codecOf[map[string]any](),
			CallToolResult:             codecOf[map[string]any](),
		}},
	}
}

type validator interface{ Validate() error }

// codecOf returns the codec of T: its own UnmarshalJSON and MarshalJSON where it has them (as a
// program that knows the message's type calls them), encoding/json otherwise.
func codecOf[T any]() Codec {
	_, validates := any(new(T)).(validator)
	return Codec{
		GoType: reflect.TypeFor[T]().String(),
		Decode: func(data []byte) (any, error) {
			v := new(T)
			var err error
			if u, ok := any(v).(json.Unmarshaler); ok {
				err = u.UnmarshalJSON(data)
			} else {
				err = json.Unmarshal(data, v)
			}
			if err != nil {
				return nil, err
			}
			if val, ok := any(v).(validator); ok {
				if err := val.Validate(); err != nil {
					return nil, fmt.Errorf("validate: %w", err)
				}
			}
			return v, nil
		},
		Encode: func(v any) ([]byte, error) {
			if m, ok := v.(json.Marshaler); ok {
				return m.MarshalJSON()
			}
			return json.Marshal(v)
		},
		Validates: validates,
	}
}

// noCopyCodecOf returns the codec of a type of gen/mcpdraft that decodes with
// mcpdraft.UnmarshalNoCopy: as a receiver that hands over the buffer it read a message into, so
// that the value keeps the input instead of a copy. The benchmark gives it the same corpus every
// time; UnmarshalNoCopy only reads it.
func noCopyCodecOf[T any, P interface {
	*T
	json.Unmarshaler
	Validate() error
}]() Codec {
	c := codecOf[T]()
	c.Decode = func(data []byte) (any, error) {
		v := P(new(T))
		if err := mcpdraft.UnmarshalNoCopy(data, v); err != nil {
			return nil, err
		}
		return v, nil
	}
	return c
}

// Op is what a benchmark measures.
type Op string

// The operations.
const (
	Decode Op = "Decode" // bytes to a (validated) value
	Encode Op = "Encode" // a value to bytes
)

// A Floor is a lower bound on the cost of an operation: work on the bytes that every codec does
// at least once, and that builds no value.
type Floor struct {
	// Name is the benchmark name of the floor.
	Name string
	// Op is the operation it bounds. A decode floor reads the corpus as the decoders see it; an
	// encode floor reads its compact form, the bytes the encoders write.
	Op Op
	// New returns a function that runs the floor once on its input. It may keep state (a buffer,
	// a decoder) from one call to the next.
	New func() func(data []byte) error
}

// Floors returns the floors, in the order of the tables.
func Floors() []Floor {
	return []Floor{
		{Name: "jx.Skip", Op: Decode, New: func() func([]byte) error {
			var d jx.Decoder
			return func(data []byte) error {
				d.ResetBytes(data)
				return d.Skip()
			}
		}},
		{Name: "json.Valid", Op: Decode, New: func() func([]byte) error {
			return func(data []byte) error {
				if !json.Valid(data) {
					return errors.New("not valid JSON")
				}
				return nil
			}
		}},
		{Name: "json.Compact", Op: Encode, New: func() func([]byte) error {
			var buf bytes.Buffer
			return func(data []byte) error {
				buf.Reset()
				return json.Compact(&buf, data)
			}
		}},
	}
}
