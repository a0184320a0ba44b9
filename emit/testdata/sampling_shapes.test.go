package shapes

// The tests TestSamplingRulesUnderShapes runs in each package of the sampling types it generates
// under a configuration: the package is renamed, and keepsForm set as the configuration has it.

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	def "github.com/mcpgen/mcpgen/gen/mcp20260728"

	"example.com/shapes/samplingtest"
)

// keepsForm is set when the shapes keep what the package decodes: a list of one block is sent
// as a list, an empty capability object is kept.
const keepsForm = true

// TestSamplingRules runs the table of the sampling rules and of CheckCapabilities on the package,
// as gen's packages do, where the package sends what it decodes.
func TestSamplingRules(t *testing.T) {
	if !keepsForm {
		t.Skip("a list of one block is sent as the block: TestSameAsDefault compares on what is sent")
	}
	samplingtest.Run(t, samplingtest.Package{
		Params:    func() samplingtest.Value { return new(CreateMessageRequestParams) },
		Result:    func() samplingtest.Value { return new(CreateMessageResult) },
		Request:   func() samplingtest.Value { return new(CreateMessageRequest) },
		Envelope:  `{"method":"sampling/createMessage","params":%s}`,
		Unmarshal: func(data []byte, v samplingtest.Value) error { return Unmarshal(data, v) },
		Marshal:   func(v samplingtest.Value) ([]byte, error) { return Marshal(v) },
		CheckCapabilities: func(params, client []byte) error {
			return checkCapabilities(params, client)
		},
		Problems: func(err error) ([]samplingtest.Problem, int, bool) {
			var ve *ValidationError
			if !errors.As(err, &ve) {
				return nil, 0, false
			}
			return problems(err), ve.Code, true
		},
	})
}

// TestSameAsDefault decodes every case of the table and every sampling example into the
// package, and checks that its Validate (or CheckCapabilities) reports what gen's mcp20260728
// reports on the JSON the package sends: the same problems at the same pointers.
func TestSameAsDefault(t *testing.T) {
	invalid := 0
	for _, c := range samplingtest.Cases() {
		t.Run(c.Rule+"/"+c.Name, func(t *testing.T) {
			switch {
			case c.Client != "" || c.NoClient:
				var client []byte
				if !c.NoClient {
					client = []byte(c.Client)
				}
				got := problems(checkCapabilities([]byte(c.Params), client))
				params := []byte(c.Params)
				if !keepsForm { // gen's package judges what the package sends
					params, client = sent(t, new(CreateMessageRequestParams), params), sent(t, new(ClientCapabilities), client)
				}
				want := defCapabilities(t, params, client)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("CheckCapabilities: problems\n got: %v\nwant: %v", got, want)
				}
				invalid += len(want)
			case c.Params != "":
				invalid += compare(t, new(CreateMessageRequestParams), new(def.CreateMessageRequestParams), []byte(c.Params))
			default:
				invalid += compare(t, new(CreateMessageResult), new(def.CreateMessageResult), []byte(c.Result))
			}
		})
	}
	files, err := filepath.Glob("../testdata/*/*.json")
	if err != nil || len(files) < 9 {
		t.Fatalf("the sampling examples: %v, %v", files, err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(file, func(t *testing.T) {
			switch filepath.Base(filepath.Dir(file)) {
			case "CreateMessageRequest":
				compare(t, new(CreateMessageRequest), new(def.CreateMessageRequest), data)
			case "CreateMessageRequestParams":
				compare(t, new(CreateMessageRequestParams), new(def.CreateMessageRequestParams), data)
			case "CreateMessageResult":
				compare(t, new(CreateMessageResult), new(def.CreateMessageResult), data)
			case "SamplingMessage":
				compare(t, new(SamplingMessage), new(def.SamplingMessage), data)
			default:
				t.Fatalf("no type for %s", file)
			}
		})
	}
	if invalid < 20 {
		t.Errorf("the cases found %d problems: the comparison compares too little", invalid)
	}
}

type value interface{ Validate() error }

// sent is data decoded into v and encoded again: what the package sends of it (nil for nil).
func sent(t *testing.T, v value, data []byte) []byte {
	t.Helper()
	if data == nil {
		return nil
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("decoding: %v\n%s", err, data)
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("encoding: %v", err)
	}
	return out
}

// compare decodes data into v, encodes v, decodes that into d of gen's package, and checks that
// both report the same problems; it returns how many.
func compare(t *testing.T, v, d value, data []byte) int {
	t.Helper()
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("decoding: %v\n%s", err, data)
	}
	got := problems(v.Validate())
	sent, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("encoding: %v", err)
	}
	if err := json.Unmarshal(sent, d); err != nil {
		t.Fatalf("gen's package does not decode what the package sends: %v\n%s", err, sent)
	}
	want := problems(d.Validate())
	if !reflect.DeepEqual(got, want) {
		t.Errorf("problems\n got: %v\nwant: %v (gen's package, on %s)", got, want, sent)
	}
	return len(want)
}

func checkCapabilities(params, client []byte) error {
	var p CreateMessageRequestParams
	if err := json.Unmarshal(params, &p); err != nil {
		return err
	}
	var c *ClientCapabilities
	if client != nil {
		c = new(ClientCapabilities)
		if err := json.Unmarshal(client, c); err != nil {
			return err
		}
	}
	return p.CheckCapabilities(c)
}

func defCapabilities(t *testing.T, params, client []byte) []samplingtest.Problem {
	var p def.CreateMessageRequestParams
	if err := json.Unmarshal(params, &p); err != nil {
		t.Fatal(err)
	}
	var c *def.ClientCapabilities
	if client != nil {
		c = new(def.ClientCapabilities)
		if err := json.Unmarshal(client, c); err != nil {
			t.Fatal(err)
		}
	}
	return problems(p.CheckCapabilities(c))
}

// problems are the problems of a *ValidationError of the package or of gen's, nil for nil; an
// error of another kind is one problem at the root, with its text.
func problems(err error) []samplingtest.Problem {
	var ve *ValidationError
	var dve *def.ValidationError
	var ps []samplingtest.Problem
	switch {
	case err == nil:
	case errors.As(err, &ve):
		for _, p := range ve.Problems {
			ps = append(ps, samplingtest.Problem(p))
		}
	case errors.As(err, &dve):
		for _, p := range dve.Problems {
			ps = append(ps, samplingtest.Problem(p))
		}
	default:
		ps = []samplingtest.Problem{{Message: "not a *ValidationError: " + err.Error()}}
	}
	return ps
}
