// Package svgplot draws a log-log line plot as a standalone SVG document, with nothing but the
// standard library, so the plot of the bench module can be regenerated anywhere.
package svgplot

import (
	"bytes"
	"fmt"
	"html"
	"math"
)

// A Plot is a log-log plot of series of points.
type Plot struct {
	Title    string
	Subtitle string
	XLabel   string
	YLabel   string
	// XTicks and YTicks are the ticks of the axes: positions (in data units) and their labels.
	// The axes span the ticks and every point.
	XTicks, YTicks []Tick
	Series         []Series
	// Notes are lines written under the legend.
	Notes []string
}

// A Tick is a labeled position on an axis.
type Tick struct {
	At    float64
	Label string
}

// A Series is a named line of points, drawn in the order given.
type Series struct {
	Name   string
	Points []Point
	// Dashed draws the line dashed (for a floor).
	Dashed bool
}

// A Point is a point of a series, in data units; both coordinates must be positive.
type Point struct{ X, Y float64 }

// Palette is the colors of the series, in order (from the Okabe-Ito palette, which readers with
// a color vision deficiency can tell apart).
var Palette = []string{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#555555", "#E69F00", "#56B4E9"}

const (
	width, height           = 820, 560
	left, right, top, below = 80, 20, 64, 56
)

// SVG returns the plot as an SVG document. It is deterministic: the same plot gives the same
// bytes.
func (p *Plot) SVG() ([]byte, error) {
	xmin, xmax := span(p.XTicks, p.Series, func(pt Point) float64 { return pt.X })
	ymin, ymax := span(p.YTicks, p.Series, func(pt Point) float64 { return pt.Y })
	if !(xmin > 0 && ymin > 0) {
		return nil, fmt.Errorf("a log-log plot needs positive coordinates (x from %g, y from %g)", xmin, ymin)
	}
	pw, ph := float64(width-left-right), float64(height-top-below)
	sx := func(x float64) float64 {
		return left + pw*(math.Log10(x)-math.Log10(xmin))/math.Max(1e-9, math.Log10(xmax)-math.Log10(xmin))
	}
	sy := func(y float64) float64 {
		return top + ph - ph*(math.Log10(y)-math.Log10(ymin))/math.Max(1e-9, math.Log10(ymax)-math.Log10(ymin))
	}

	var b bytes.Buffer
	f := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	f(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", width, height, width, height)
	f(`<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	f(`<text x="%d" y="24" font-size="16" font-weight="bold">%s</text>`+"\n", left, esc(p.Title))
	f(`<text x="%d" y="44" fill="#444">%s</text>`+"\n", left, esc(p.Subtitle))

	// Grid and ticks.
	for _, t := range p.XTicks {
		x := sx(t.At)
		f(`<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>`+"\n", x, top, x, height-below)
		f(`<text x="%.1f" y="%d" text-anchor="middle">%s</text>`+"\n", x, height-below+18, esc(t.Label))
	}
	for _, t := range p.YTicks {
		y := sy(t.At)
		f(`<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>`+"\n", left, y, width-right, y)
		f(`<text x="%d" y="%.1f" text-anchor="end" dominant-baseline="middle">%s</text>`+"\n", left-8, y, esc(t.Label))
	}
	f(`<rect x="%d" y="%d" width="%.0f" height="%.0f" fill="none" stroke="#333"/>`+"\n", left, top, pw, ph)
	f(`<text x="%.1f" y="%d" text-anchor="middle">%s</text>`+"\n", left+pw/2, height-12, esc(p.XLabel))
	f(`<text transform="translate(18 %.1f) rotate(-90)" text-anchor="middle">%s</text>`+"\n", top+ph/2, esc(p.YLabel))

	// Series.
	for i, s := range p.Series {
		color := Palette[i%len(Palette)]
		dash := ""
		if s.Dashed {
			dash = ` stroke-dasharray="6 4"`
		}
		f(`<g stroke="%s" fill="%s">`+"\n", color, color)
		if len(s.Points) > 1 {
			b.WriteString(`<polyline fill="none" stroke-width="2"` + dash + ` points="`)
			for j, pt := range s.Points {
				if j > 0 {
					b.WriteByte(' ')
				}
				f("%.1f,%.1f", sx(pt.X), sy(pt.Y))
			}
			b.WriteString(`"/>` + "\n")
		}
		for _, pt := range s.Points {
			f(`<circle cx="%.1f" cy="%.1f" r="3"/>`+"\n", sx(pt.X), sy(pt.Y))
		}
		b.WriteString("</g>\n")
	}

	// Legend, top left inside the plot area.
	y := top + 18
	for i, s := range p.Series {
		color := Palette[i%len(Palette)]
		dash := ""
		if s.Dashed {
			dash = ` stroke-dasharray="6 4"`
		}
		f(`<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"%s/>`+"\n", left+12, y, left+36, y, color, dash)
		f(`<text x="%d" y="%d" dominant-baseline="middle">%s</text>`+"\n", left+42, y, esc(s.Name))
		y += 18
	}
	for _, n := range p.Notes {
		f(`<text x="%d" y="%d" dominant-baseline="middle" fill="#444">%s</text>`+"\n", left+12, y, esc(n))
		y += 18
	}
	b.WriteString("</svg>\n")
	return b.Bytes(), nil
}

func span(ticks []Tick, series []Series, coord func(Point) float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, t := range ticks {
		lo, hi = math.Min(lo, t.At), math.Max(hi, t.At)
	}
	for _, s := range series {
		for _, pt := range s.Points {
			lo, hi = math.Min(lo, coord(pt)), math.Max(hi, coord(pt))
		}
	}
	return lo, hi
}

func esc(s string) string { return html.EscapeString(s) }

// Fit fits a line to the points in log-log space, by least squares: log10 y = slope·log10 x + c.
// A slope of 1 is growth in proportion to x. r2 is the coefficient of determination of the fit.
func Fit(points []Point) (slope, r2 float64) {
	n := float64(len(points))
	if n < 2 {
		return math.NaN(), math.NaN()
	}
	var sx, sy, sxx, sxy, syy float64
	for _, p := range points {
		x, y := math.Log10(p.X), math.Log10(p.Y)
		sx, sy, sxx, sxy, syy = sx+x, sy+y, sxx+x*x, sxy+x*y, syy+y*y
	}
	vx, vy, cxy := sxx-sx*sx/n, syy-sy*sy/n, sxy-sx*sy/n
	if vx == 0 {
		return math.NaN(), math.NaN()
	}
	slope = cxy / vx
	if vy == 0 {
		return slope, 1
	}
	return slope, cxy * cxy / (vx * vy)
}
