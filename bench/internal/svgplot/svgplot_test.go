package svgplot

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFit(t *testing.T) {
	var linear, quadratic, noisy []Point
	for x := 1.0; x <= 1e6; x *= 10 {
		linear = append(linear, Point{x, 3 * x})
		quadratic = append(quadratic, Point{x, x * x})
		noisy = append(noisy, Point{x, x * (1 + 0.5*math.Sin(x))})
	}
	slope, r2 := Fit(linear)
	assert.InDelta(t, 1, slope, 1e-9)
	assert.InDelta(t, 1, r2, 1e-9)
	slope, _ = Fit(quadratic)
	assert.InDelta(t, 2, slope, 1e-9)
	slope, r2 = Fit(noisy)
	assert.InDelta(t, 1, slope, 0.1)
	assert.Less(t, r2, 1.0)
	slope, _ = Fit(linear[:1])
	assert.True(t, math.IsNaN(slope))
}

func TestSVG(t *testing.T) {
	p := &Plot{
		Title:  "a <title> & more",
		XTicks: []Tick{{1, "1"}, {100, "100"}},
		YTicks: []Tick{{10, "10"}, {1000, "1000"}},
		Series: []Series{
			{Name: "a", Points: []Point{{1, 10}, {10, 100}, {100, 1000}}},
			{Name: "floor", Points: []Point{{1, 20}, {100, 30}}, Dashed: true},
		},
		Notes: []string{"note"},
	}
	data, err := p.SVG()
	require.NoError(t, err)
	again, err := p.SVG()
	require.NoError(t, err)
	assert.Equal(t, data, again, "deterministic")

	// Well-formed XML, and the corners of the data are the corners of the plot area.
	dec := xml.NewDecoder(bytes.NewReader(data))
	var circles [][2]string
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "circle" {
			var cx, cy string
			for _, a := range se.Attr {
				switch a.Name.Local {
				case "cx":
					cx = a.Value
				case "cy":
					cy = a.Value
				}
			}
			circles = append(circles, [2]string{cx, cy})
		}
	}
	require.Len(t, circles, 5)
	assert.Equal(t, [2]string{"80.0", "504.0"}, circles[0], "(1, 10) is the bottom left corner")
	assert.Equal(t, [2]string{"800.0", "64.0"}, circles[2], "(100, 1000) is the top right corner")
	assert.Contains(t, string(data), "a &lt;title&gt; &amp; more")
	assert.Contains(t, string(data), `stroke-dasharray`)

	_, err = (&Plot{Series: []Series{{Points: []Point{{0, 1}}}}}).SVG()
	assert.Error(t, err)
}
