package results

import (
	"fmt"
	"math"
	"os"
	"strings"
)

// Duration writes nanoseconds with a unit that keeps three or four digits: "850 ns", "12.3 µs",
// "3.71 ms", "1.52 s".
func Duration(ns float64) string {
	switch {
	case ns >= 1e9:
		return fmt.Sprintf("%.3g s", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.3g ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.3g µs", ns/1e3)
	}
	return fmt.Sprintf("%.3g ns", ns)
}

// Bytes writes a byte count with a binary unit: "904 B", "23.4 KiB", "1010 KiB", "1.38 MiB".
func Bytes(n float64) string {
	unit := func(v float64, name string) string {
		if v >= 100 {
			return fmt.Sprintf("%.0f %s", v, name)
		}
		return fmt.Sprintf("%.3g %s", v, name)
	}
	switch {
	case n >= 1<<30:
		return unit(n/(1<<30), "GiB")
	case n >= 1<<20:
		return unit(n/(1<<20), "MiB")
	case n >= 1<<10:
		return unit(n/(1<<10), "KiB")
	}
	return fmt.Sprintf("%.0f B", n)
}

// Count writes a count with thousands separators: "1,050,145".
func Count(n float64) string {
	s := fmt.Sprintf("%.0f", n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Ratio writes a ratio with two significant digits or more: "0.053×", "3.6×", "48×".
func Ratio(r float64) string {
	switch {
	case math.IsNaN(r) || math.IsInf(r, 0):
		return "—"
	case r >= 10:
		return fmt.Sprintf("%.0f×", r)
	}
	return fmt.Sprintf("%.2g×", r)
}

// A Table is a markdown table.
type Table struct {
	Header []string
	Rows   [][]string
}

func (t *Table) String() string {
	var b strings.Builder
	row := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			b.WriteString(" " + strings.ReplaceAll(c, "|", `\|`) + " |")
		}
		b.WriteString("\n")
	}
	row(t.Header)
	b.WriteString("|")
	for range t.Header {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, r := range t.Rows {
		row(r)
	}
	return b.String()
}

// ReplaceBlock replaces, in a file, the text between the lines "<!-- name:begin -->" and
// "<!-- name:end -->" with text.
func ReplaceBlock(file, name, text string) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	begin, end := "<!-- "+name+":begin -->\n", "<!-- "+name+":end -->"
	i := strings.Index(string(data), begin)
	j := strings.Index(string(data), end)
	if i < 0 || j < i {
		return fmt.Errorf("%s: no block %q ... %q to replace", file, strings.TrimSpace(begin), end)
	}
	out := string(data[:i+len(begin)]) + text + string(data[j:])
	return os.WriteFile(file, []byte(out), 0o644)
}
