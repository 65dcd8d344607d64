// Command typed-tools has tools whose schemas come from Go types: no hand-written JSON
// Schema. area takes a struct and returns one: both its parameters and its output_schema
// are derived, the host sees them at initialize, and the SDK validates the arguments against
// the first and the returned value against the second. route takes a list of structs and an
// enumerated mode. The Go twin of examples/python/typed-tools (TypedDict and dataclasses).
package main

import (
	"context"

	octet "github.com/octet-kit/octet/sdk-go"
)

type areaArgs struct {
	Width  float64 `json:"width" jsonschema:"minimum=0,description=the width"`
	Height float64 `json:"height" jsonschema:"minimum=0,description=the height"`
	Unit   string  `json:"unit,omitempty" jsonschema:"enum=m,enum=cm"`
}

type areaResult struct {
	Area float64 `json:"area"`
	Unit string  `json:"unit,omitempty"`
}

type stop struct {
	Name    string `json:"name" jsonschema:"minLength=1"`
	Minutes int    `json:"minutes" jsonschema:"minimum=0,maximum=600"`
}

type routeArgs struct {
	Stops []stop `json:"stops" jsonschema:"minItems=1,maxItems=16"`
	Mode  string `json:"mode,omitempty" jsonschema:"enum=walk,enum=cycle"`
}

type routeResult struct {
	TotalMinutes int      `json:"total_minutes"`
	Mode         string   `json:"mode"`
	Names        []string `json:"names,omitempty"`
}

func main() {
	ext := octet.New(octet.Options{})
	octet.StructuredTool(ext, octet.ToolSpec{Name: "area", Description: "Area of a rectangle"},
		func(ctx context.Context, a areaArgs) (areaResult, error) {
			unit := a.Unit
			if unit == "" {
				unit = "m"
			}
			return areaResult{Area: a.Width * a.Height, Unit: unit}, nil
		})
	octet.StructuredTool(ext, octet.ToolSpec{Name: "route", Description: "Total time of a route"},
		func(ctx context.Context, a routeArgs) (routeResult, error) {
			mode := a.Mode
			if mode == "" {
				mode = "walk"
			}
			factor := 1.0
			if mode != "walk" {
				factor = 0.5
			}
			total, names := 0, make([]string, 0, len(a.Stops))
			for _, s := range a.Stops {
				total += s.Minutes
				names = append(names, s.Name)
			}
			return routeResult{TotalMinutes: int(float64(total) * factor), Mode: mode, Names: names}, nil
		})
	ext.Run()
}
