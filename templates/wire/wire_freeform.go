package wire

import "encoding/json"

// DecodeObject decodes a free-form JSON object, such as a tool's input, a request's arguments or
// a _meta object, into v, the way json.Unmarshal does.
func DecodeObject(m map[string]json.RawMessage, v any) error {
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}

// EncodeObject encodes v, which must encode as a JSON object (a struct or a map), into a
// free-form JSON object, the way json.Marshal does. The result can be assigned to any free-form
// object of this package (a tool's input, a JSONObject, a MetaObject).
func EncodeObject(v any) (map[string]json.RawMessage, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	d := newDecoder(data)
	d.own = true // data is ours: the values alias it
	m, err := d.rawMap()
	if err = d.finish(err); err != nil {
		return nil, err
	}
	return m, nil
}
