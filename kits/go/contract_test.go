package smsemu

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// kitContract is the part of test-vectors/kit-contract.json (written by `npm run vectors` from the emulator's code)
// this kit is held to.
type kitContract struct {
	Version    string `json:"version"`
	Resolution struct {
		Env                map[string]string `json:"env"`
		MinimumNodeVersion string            `json:"minimumNodeVersion"`
		NotFound           string            `json:"notFound"`
	} `json:"resolution"`
	Start struct {
		Args        []string `json:"args"`
		BundleEntry string   `json:"bundleEntry"`
	} `json:"start"`
	Paths struct {
		Control string            `json:"control"`
		API     map[string]string `json:"api"`
		Base    map[string]string `json:"base"`
	} `json:"paths"`
	World struct {
		Request schema `json:"request"`
	} `json:"world"`
	Timeline struct {
		MaxLength  int `json:"maxLength"`
		HashLength int `json:"hashLength"`
		Examples   []struct {
			Test string `json:"test"`
			File string `json:"file"`
		} `json:"examples"`
	} `json:"timeline"`
	Operations []operation        `json:"operations"`
	Shortcuts  []operation        `json:"shortcuts"`
	Answers    map[string]*schema `json:"answers"`
}

type operation struct {
	ID    string            `json:"id"`
	Names map[string]string `json:"names"`
}

type schema struct {
	Properties map[string]*schema `json:"properties"`
}

func readContract(t *testing.T) kitContract {
	t.Helper()
	var contract kitContract
	readVectors(t, "kit-contract.json", &contract)
	return contract
}

func TestTheKitsVersionPathsAndStartAreTheContracts(t *testing.T) {
	contract := readContract(t)
	if contract.Version != Version {
		t.Errorf("the kit's Version is %s, the contract's %s (package.json)", Version, contract.Version)
	}
	if contract.Paths.Control != ControlPath || contract.Paths.API[Live] != LivePath || contract.Paths.API[Sandbox] != SandboxPath ||
		contract.Paths.Base[Sandbox] != strings.TrimSuffix(SandboxPath, LivePath) || contract.Paths.Base[Live] != "" {
		t.Errorf("the contract's paths %+v differ from the kit's", contract.Paths)
	}
	env := map[string]string{"url": envURL, "token": envToken, "command": envCommand, "startTimeout": envStartTimeout}
	if !reflect.DeepEqual(contract.Resolution.Env, env) {
		t.Errorf("the contract's variables %v, the kit's %v", contract.Resolution.Env, env)
	}
	if contract.Resolution.MinimumNodeVersion != MinimumNode {
		t.Errorf("minimum node %s, the contract's %s", MinimumNode, contract.Resolution.MinimumNodeVersion)
	}
	if contract.Resolution.NotFound != notFoundText {
		t.Errorf("the kit's error when nothing is found:\n%s\nthe contract's:\n%s", notFoundText, contract.Resolution.NotFound)
	}
	if got := startArgs("{readyFile}", "{parentPid}"); !reflect.DeepEqual(got, contract.Start.Args) {
		t.Errorf("start arguments %q, the contract's %q", got, contract.Start.Args)
	}
	if contract.Start.BundleEntry != BundleEntry {
		t.Errorf("bundle entry %s, the contract's %s", BundleEntry, contract.Start.BundleEntry)
	}
}

func TestTimelineFileNamesFollowTheContractsRule(t *testing.T) {
	contract := readContract(t)
	if contract.Timeline.MaxLength != TimelineMaxLength || contract.Timeline.HashLength != TimelineHashLength {
		t.Errorf("max length %d and hash length %d, the contract's %d and %d", TimelineMaxLength, TimelineHashLength,
			contract.Timeline.MaxLength, contract.Timeline.HashLength)
	}
	for _, example := range contract.Timeline.Examples {
		if got := TimelineFileName(example.Test); got != example.File {
			t.Errorf("%q: %s, want %s", example.Test, got, example.File)
		}
	}
}

// documentedMethods is every method of *Control declared in the package's files, and whether it has a doc comment.
func documentedMethods(t *testing.T) map[string]bool {
	t.Helper()
	files := token.NewFileSet()
	names, _ := filepath.Glob("*.go")
	methods := map[string]bool{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(files, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, declaration := range file.Decls {
			function, ok := declaration.(*ast.FuncDecl)
			if !ok || function.Recv == nil {
				continue
			}
			if star, ok := function.Recv.List[0].Type.(*ast.StarExpr); ok {
				if receiver, ok := star.X.(*ast.Ident); ok && receiver.Name == "Control" {
					methods[function.Name.Name] = function.Doc != nil && strings.HasPrefix(function.Doc.Text(), function.Name.Name+" ")
				}
			}
		}
	}
	return methods
}

// Every control operation of the OpenAPI document (and every shortcut) is a method of Control, found by reflection
// under the contract's Go name, with a doc comment.
func TestEveryControlOperationOfTheContractIsADocumentedMethodOfControl(t *testing.T) {
	contract := readContract(t)
	if len(contract.Operations) == 0 {
		t.Fatal("the contract lists no operations")
	}
	methods := reflect.TypeOf(&Control{})
	documented := documentedMethods(t)
	for _, op := range append(append([]operation{}, contract.Operations...), contract.Shortcuts...) {
		name := op.Names["go"]
		if name == "" {
			t.Errorf("%s has no Go name in the contract", op.ID)
			continue
		}
		if _, ok := methods.MethodByName(name); !ok {
			t.Errorf("%s: Control has no method %s", op.ID, name)
		} else if !documented[name] {
			t.Errorf("%s: Control.%s has no doc comment starting with its name", op.ID, name)
		}
	}
}

// jsonFields is the JSON names of a struct's fields, embedded structs' included.
func jsonFields(kind reflect.Type) map[string]bool {
	fields := map[string]bool{}
	for i := 0; i < kind.NumField(); i++ {
		field := kind.Field(i)
		if field.Anonymous {
			for name := range jsonFields(field.Type) {
				fields[name] = true
			}
			continue
		}
		fields[strings.Split(field.Tag.Get("json"), ",")[0]] = true
	}
	return fields
}

// Each answer the contract describes as an object is a struct here with a field for every property (the generated
// answers_test.go names each answer's Go type); a document handed back whole is a json.RawMessage.
func TestEveryAnswerIsAStructWithEveryPropertyOfTheContract(t *testing.T) {
	contract := readContract(t)
	types := map[string]any{}
	for _, answer := range contractAnswerTypes {
		types[answer.name] = answer.value
	}
	for name, answer := range contract.Answers {
		value, typed := types[name]
		if !typed {
			t.Errorf("the answer %s has no Go type in the kit", name)
			continue
		}
		if _, whole := value.(json.RawMessage); whole || answer == nil || answer.Properties == nil {
			continue // a number or a text, or a document passed through whole
		}
		if reflect.TypeOf(value).Kind() != reflect.Struct {
			t.Errorf("the answer %s is a %T, not a struct", name, value)
			continue
		}
		fields := jsonFields(reflect.TypeOf(value))
		for property := range answer.Properties {
			if !fields[property] {
				t.Errorf("%s (%T) has no field for %q", name, value, property)
			}
		}
	}
}

// A world request with every option set sends only fields the contract's world request knows.
func TestAWorldRequestSendsOnlyTheContractsFields(t *testing.T) {
	contract := readContract(t)
	five, a, b := 5, "http://a", "http://b"
	body, err := WorldRequest{Name: "n", StartTime: "2026-11-23T09:00:00Z", Scenario: map[string]any{},
		Account: &WorldAccount{APIKey: "pk_x", SigningSecret: "s", Balance: &five, SandboxBalance: &five,
			WebhookURL: &a, SandboxWebhookURL: &b, Scopes: []string{"send"}}}.body()
	if err != nil {
		t.Fatal(err)
	}
	var unknown []string
	for name, value := range body {
		property := contract.World.Request.Properties[name]
		if property == nil {
			unknown = append(unknown, name)
			continue
		}
		if nested, ok := value.(fields); ok {
			for inner := range nested {
				if property.Properties[inner] == nil {
					unknown = append(unknown, name+"."+inner)
				}
			}
		}
	}
	sort.Strings(unknown)
	if len(unknown) > 0 {
		t.Fatalf("fields the contract's world request does not know: %v", unknown)
	}
}
