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
	info, known := p.lookup(m.method)
	sides := sidesOf(m, p)

	var envelope string
	var wantTypes []reflect.Type // nil: any result
	var methodDefs []string
	switch m.kind {
	case request, notification:
		envelope = "JSONRPCRequest"
		if m.kind == notification {
			envelope = "JSONRPCNotification"
		}
		typed := known && info.notify == (m.kind == notification) &&
			(sides[0] == "client" && info.fromClient || sides[0] == "server" && info.fromServer)
		if typed {
			wantTypes = []reflect.Type{info.message}
			methodDefs = []string{ref.Definition(info.message.Elem().Name())}
		} else {
			wantTypes = []reflect.Type{p.unknown[sides[0]+" "+m.kind]}
		}
	case result:
		envelope = cmpOr(ref.Definition("JSONRPCResultResponse"), "JSONRPCResponse")
		if known && info.results != nil {
			for _, t := range info.results {
				methodDefs = append(methodDefs, ref.Definition(t.Elem().Name()))
			}
		}
	case errorReply:
		envelope = cmpOr(ref.Definition("JSONRPCErrorResponse"), "JSONRPCError")
	}

	// What the schema says.
	o.accepted = true
	if err := ref.Validate(ref.Defs()+envelope, inst); err != nil {
		o.accepted, o.schemaErr = false, envelope+": "+oneLine(err.Error())
	} else if m.kind == result && methodDefs != nil {
		res := inst.(map[string]any)["result"]
		var errs []string
		for i, def := range methodDefs {
			if err := ref.Validate(ref.Defs()+def, res); err != nil {
				errs = append(errs, def+": "+oneLine(err.Error()))
			} else {
				wantTypes = append(wantTypes, info.results[i])
			}
		}
		if wantTypes == nil {
			o.accepted, o.schemaErr = false, strings.Join(errs, "; ")
		}
	} else if methodDefs != nil {
		if err := ref.Validate(ref.Defs()+methodDefs[0], inst); err != nil {
			o.accepted, o.schemaErr = false, methodDefs[0]+": "+oneLine(err.Error())
		}
	}
	o.want = typeNames(wantTypes)
	if m.kind == result {
		o.want = "a result response holding " + cmpOr(o.want, "any result")
	}

	// What the package does.
	pending := func(id string) (string, bool) {
		if id == m.id && m.method != "" {
			return m.method, true
		}
		return "", false
	}
	o.side = strings.Join(sides, " or ")
	var decoded any
	var errs []string
	for _, side := range sides {
		v, err := p.decode(side, m.raw, pending)
		if err == nil {
			o.side, decoded = side, v
			break
		}
		errs = append(errs, side+": "+err.Error())
	}
	if decoded == nil {
		o.failure = "decoding fails: " + strings.Join(errs, "; ")
		return o
	}
	t := reflect.TypeOf(decoded)
	o.got = typeName(t)
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
	o.failure = strings.Join(problems, "; ")
	return o
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
