//go:build goexperiment.jsonv2

package bench

import (
	"bytes"
	"encoding/json/jsontext"
	"io"
)

func init() {
	var d jsontext.Decoder
	jsontextScanners["jsontext.SkipValue"] = func(data []byte) error {
		d.Reset(bytes.NewReader(data))
		return d.SkipValue()
	}
	jsontextScanners["jsontext.ReadToken"] = func(data []byte) error {
		d.Reset(bytes.NewReader(data))
		for {
			if _, err := d.ReadToken(); err == io.EOF {
				return nil
			} else if err != nil {
				return err
			}
		}
	}
}
