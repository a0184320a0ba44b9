package traffic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/interop/internal/jsonvalue"
	"github.com/mcpgen/mcpgen/interop/internal/schemaref"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// outcome is the verdict on one message in one version.
type outcome struct {
	msg     *message
	version string
	// accepted is set when the version's schema.json accepts the message: its envelope
	// (JSONRPCRequest, JSONRPCNotification, JSONRPCResultResponse or JSONRPCResponse before
	// 2025-11-25, JSONRPCErrorResponse or JSONRPCError) and, for a method the version defines, the
	// method's definition (CallToolRequest) or, for a result, one of the method's results.
	accepted  bool
	schemaErr string // why not, on one line
	side      string // the decoder used: "client" (DecodeClientMessage) or "server"
	want      string // the Go type(s) the message must decode to
	got       string // what it decoded to: "*CallToolRequest", "*JSONRPCResultResponse{*CallToolResult}"
	// failure says what is wrong with the package's decoding, validation or re-encoding of the
	// message ("" when nothing is). For a message the schema accepts, a failure must be listed.
	failure string
	// unpaired marks the verdict on a result decoded without the method of its request (see
	// judgeUnpaired).
	unpaired bool
}

// messageDecoder is what every message of a package has.
type messageDecoder interface {
	Validate() error
	MarshalJSON() ([]byte, error)
}

// judge decides what the message must decode to in package p and checks that it does.
func judge(p genPackage, ref *schemaref.Reference, m *message) outcome {
	o := outcome{msg: m, version: p.version}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(m.raw))
	if err != nil {
		o.failure = "not JSON: " + err.Error()
		return o
	}
	sides := sidesOf(m, p)
	e := expect(p, ref, m, sides[0])
	e.checkSchema(ref, m, inst, &o)
	o.want = typeNames(e.wantTypes)
	if m.kind == result {
		o.want = "a result response holding " + cmpOr(o.want, "any result")
	}
	decoded, ok := decodeMessage(p, m, sides, &o)
	if !ok {
		return o
	}
	o.failure = strings.Join(checkDecoded(m, decoded, e.wantTypes, &o), "; ")
	return o
}

// expectation is what the schema and the package must make of a message: the definition of
// its envelope, the definitions of its method, and the Go types it must decode to.
type expectation struct {
	envelope   string
	methodDefs []string
	results    []reflect.Type // for a result: the Go type of each of methodDefs
	wantTypes  []reflect.Type // nil: any result
}

// expect says what message m must be in package p when the decoder of side (the first
// of sidesOf) reads it. The wanted types of a result are left to checkSchema: they are the
// method's results that the schema accepts.
func expect(p genPackage, ref *schemaref.Reference, m *message, side string) expectation {
	info, known := p.lookup(m.method)
	var e expectation
	switch m.kind {
	case request, notification:
		e.envelope = "JSONRPCRequest"
		if m.kind == notification {
			e.envelope = "JSONRPCNotification"
		}
		typed := known && info.notify == (m.kind == notification) &&
			(side == "client" && info.fromClient || side == "server" && info.fromServer)
		if typed {
			e.wantTypes = []reflect.Type{info.message}
			e.methodDefs = []string{ref.Definition(info.message.Elem().Name())}
		} else {
			e.wantTypes = []reflect.Type{p.unknown[side+" "+m.kind]}
		}
	case result:
		e.envelope = cmpOr(ref.Definition("JSONRPCResultResponse"), "JSONRPCResponse")
		if known && info.results != nil {
			e.results = info.results
			for _, t := range info.results {
				e.methodDefs = append(e.methodDefs, ref.Definition(t.Elem().Name()))
			}
		}
	case errorReply:
		e.envelope = cmpOr(ref.Definition("JSONRPCErrorResponse"), "JSONRPCError")
	}
	return e
}

// checkSchema records in o whether the schema accepts inst, the message m: its envelope and,
// when known, its method's definition or, for a result, one of the method's results, whose
// Go types it adds to e.wantTypes.
func (e *expectation) checkSchema(ref *schemaref.Reference, m *message, inst any, o *outcome) {
	o.accepted = true
	if err := ref.Validate(ref.Defs()+e.envelope, inst); err != nil {
		o.accepted, o.schemaErr = false, e.envelope+": "+oneLine(err.Error())
	} else if m.kind == result && e.methodDefs != nil {
		res := inst.(map[string]any)["result"]
		var errs []string
		for i, def := range e.methodDefs {
			if err := ref.Validate(ref.Defs()+def, res); err != nil {
				errs = append(errs, def+": "+oneLine(err.Error()))
			} else {
				e.wantTypes = append(e.wantTypes, e.results[i])
			}
		}
		if e.wantTypes == nil {
			o.accepted, o.schemaErr = false, strings.Join(errs, "; ")
		}
	} else if e.methodDefs != nil {
		if err := ref.Validate(ref.Defs()+e.methodDefs[0], inst); err != nil {
			o.accepted, o.schemaErr = false, e.methodDefs[0]+": "+oneLine(err.Error())
		}
	}
}

// decodeMessage decodes m with the decoder of each of sides in turn, and records in o the
// side that decoded it and what it decoded to, or, when none does, the failure.
func decodeMessage(p genPackage, m *message, sides []string, o *outcome) (any, bool) {
	pending := func(id string) (string, bool) {
		if id == m.id && m.method != "" {
			return m.method, true
		}
		return "", false
	}
	o.side = strings.Join(sides, " or ")
	var errs []string
	for _, side := range sides {
		v, err := p.decode(side, m.raw, pending)
		if err == nil {
			o.side = side
			o.got = typeName(reflect.TypeOf(v))
			return v, true
		}
		errs = append(errs, side+": "+err.Error())
	}
	o.failure = "decoding fails: " + strings.Join(errs, "; ")
	return nil, false
}

// checkDecoded lists what is wrong with decoded, what m decoded to: its type (for a result,
// that of the result it holds, which it adds to o.got), its validation and its re-encoding.
func checkDecoded(m *message, decoded any, wantTypes []reflect.Type, o *outcome) []string {
	t := reflect.TypeOf(decoded)
	var problems []string
	switch m.kind {
	case request, notification:
		if !slices.Contains(wantTypes, t) {
			problems = append(problems, "decodes to "+o.got+", want "+o.want)
		}
	case result:
		rv := reflect.ValueOf(decoded).Elem()
		res := rv.FieldByName("Result")
		if !strings.HasPrefix(t.Elem().Name(), "JSONRPC") || !res.IsValid() {
			problems = append(problems, "decodes to "+o.got+", want "+o.want)
			break
		}
		rt := res.Elem().Type()
		o.got += "{" + typeName(rt) + "}"
		if wantTypes != nil && !slices.Contains(wantTypes, rt) {
			problems = append(problems, "decodes to "+o.got+", want "+o.want)
		}
	case errorReply:
		if !strings.HasPrefix(t.Elem().Name(), "JSONRPCError") {
			problems = append(problems, "decodes to "+o.got+", want an error response")
		}
	}
	return append(problems, checkRoundTrip(m, decoded, t)...)
}

// checkRoundTrip lists what is wrong with the validation of decoded, of type t, and with
// its re-encoding, which must equal m's JSON.
func checkRoundTrip(m *message, decoded any, t reflect.Type) []string {
	var problems []string
	dm := decoded.(messageDecoder)
	unknown := strings.HasPrefix(t.Elem().Name(), "Unknown")
	if !unknown { // an Unknown variant is invalid by design: Validate reports it
		if err := dm.Validate(); err != nil {
			problems = append(problems, "Validate: "+oneLine(err.Error()))
		}
	}
	again, err := json.Marshal(dm)
	if err == nil {
		err = jsonvalue.Equal(m.raw, again)
	}
	if err != nil {
		problems = append(problems, "re-encoding: "+oneLine(err.Error()))
	}
	return problems
}

func typeName(t reflect.Type) string {
	if t.Kind() == reflect.Pointer {
		return "*" + t.Elem().Name()
	}
	return t.Name()
}

func typeNames(ts []reflect.Type) string {
	var names []string
	for _, t := range ts {
		names = append(names, typeName(t))
	}
	return strings.Join(names, " or ")
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// oneLine returns s on one line, at most 300 bytes.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 300 {
		s = s[:297] + "..."
	}
	return s
}

func (o outcome) String() string {
	if o.unpaired {
		return fmt.Sprintf("%s %s#unpaired", o.version, o.msg.name())
	}
	return fmt.Sprintf("%s %s", o.version, o.msg.name())
}

// sidesOf returns the sides that may have sent m, whose decoder decodes it: "client"
// (DecodeClientMessage) or "server", or both when the exchange and the method tables do not say.
func sidesOf(m *message, p genPackage) []string {
	if m.from != "" {
		return []string{m.from}
	}
	info, known := p.lookup(m.method)
	switch {
	case (m.kind == request || m.kind == notification) && known && !info.fromClient:
		return []string{"server"}
	case m.kind == request || m.kind == notification:
		return []string{"client"}
	case known && !info.fromServer: // a response to a client's request
		return []string{"server"}
	case known && !info.fromClient:
		return []string{"client"}
	default: // a response whose request is unknown or goes both ways
		return []string{"server", "client"}
	}
}

// judgeUnpaired checks a result response decoded as if its request were unknown (no pending
// entry for its id: a response to a request another component sent) by DecodeServerMessage or
// DecodeClientMessage, for the side that sent it (both when either could have, as judge does),
// and by UnmarshalJSONRPCMessage, which takes any result: its members alone
// choose its type. A result that the version's schema.json accepts (paired is the verdict with its
// request) must decode each way to a result type whose definition in schema.json accepts it (the
// base Result when the members' guess does not fit), validate and encode back to the same JSON.
func judgeUnpaired(p genPackage, ref *schemaref.Reference, m *message, paired outcome) outcome {
	o := outcome{msg: m, version: p.version, unpaired: true, accepted: paired.accepted, schemaErr: paired.schemaErr,
		side: strings.Join(sidesOf(m, p), " and ") + " and UnmarshalJSONRPCMessage", want: "a result response holding a result type that schema.json accepts it as"}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(m.raw))
	if err != nil {
		o.failure = "not JSON: " + err.Error()
		return o
	}
	none := func(string) (string, bool) { return "", false }
	type decoder struct {
		name   string
		decode func([]byte) (any, error)
	}
	var decoders []decoder
	for _, side := range sidesOf(m, p) {
		decoders = append(decoders, decoder{side, func(b []byte) (any, error) { return p.decode(side, b, none) }})
	}
	decoders = append(decoders, decoder{"UnmarshalJSONRPCMessage", p.generic})
	var problems, got []string
	for _, dec := range decoders {
		decoded, err := dec.decode(m.raw)
		if err != nil {
			problems = append(problems, dec.name+": decoding fails: "+oneLine(err.Error()))
			continue
		}
		t := reflect.TypeOf(decoded)
		res := reflect.ValueOf(decoded).Elem().FieldByName("Result")
		if !strings.HasPrefix(t.Elem().Name(), "JSONRPC") || !res.IsValid() || res.IsNil() {
			problems = append(problems, dec.name+": decodes to "+typeName(t)+", want "+o.want)
			continue
		}
		rt := res.Elem().Type()
		name := typeName(t) + "{" + typeName(rt) + "}"
		got = append(got, dec.name+": "+name)
		if def := ref.Definition(rt.Elem().Name()); def == "" {
			problems = append(problems, dec.name+": decodes to "+name+", which schema.json does not define")
		} else if err := ref.Validate(ref.Defs()+def, inst.(map[string]any)["result"]); err != nil {
			problems = append(problems, dec.name+": decodes to "+name+", which schema.json rejects: "+oneLine(err.Error()))
		}
		dm := decoded.(messageDecoder)
		if err := dm.Validate(); err != nil {
			problems = append(problems, dec.name+": Validate: "+oneLine(err.Error()))
		}
		again, err := json.Marshal(dm)
		if err == nil {
			err = jsonvalue.Equal(m.raw, again)
		}
		if err != nil {
			problems = append(problems, dec.name+": re-encoding: "+oneLine(err.Error()))
		}
	}
	o.got = strings.Join(got, ", ")
	o.failure = strings.Join(problems, "; ")
	return o
}
