package smsemu

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
)

// carriedNode is the Node runtime of this platform's runtime module, registered by carried_<goos>_<goarch>.go:
// files that `npm run kits` writes into the published module (the repository's source carries no runtime), each
// importing smsemulator.dev/smsemu/node/<goos>_<goarch>. Their file names constrain the build, so go test fetches
// and links only the zip of the platform it runs on.
type carriedNode struct {
	// gzipped is the node binary (gzip: a test binary links a third of its size).
	gzipped []byte
	// name is the binary's file name: node, or node.exe.
	name string
	// version is Node's own version ("v24.11.1"); key a short hash of the binary, so a rebuilt module of the same
	// version is unpacked afresh.
	version string
	key     string
}

// unpacked counts the folders this process unpacked (0 when the cache had them: a warm start).
var unpacked atomic.Int32

var (
	carriedRuntime *carriedNode
	// carriedBundle is the emulator's self-contained bundle (the folder kits/dist/bundle/), registered by
	// carried_bundle.go in the published module; carriedBundleKey is a short hash of its files.
	carriedBundle    fs.FS
	carriedBundleKey string
)

// cacheFolder is where the carried files are unpacked: the user's cache folder, one folder per version of this
// module, so a new version never runs an old bundle and a test binary reuses what an earlier one unpacked.
func cacheFolder() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "sms-emulator", "go", Version), nil
}

// unpackOnce writes a folder with write, unless it exists: into a temporary folder beside it, renamed into place at
// the end, so a test binary that runs at the same moment sees the whole folder or none (the loser's copy is removed).
func unpackOnce(name string, write func(dir string) error) (string, error) {
	root, err := cacheFolder()
	if err != nil {
		return "", err
	}
	final := filepath.Join(root, name)
	if _, err := os.Stat(final); err == nil {
		return final, nil
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", err
	}
	partial, err := os.MkdirTemp(root, name+".partial-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(partial)
	if err := write(partial); err != nil {
		return "", fmt.Errorf("unpacking into %s: %w", root, err)
	}
	if err := os.Rename(partial, final); err != nil {
		if _, statErr := os.Stat(final); statErr != nil {
			return "", err
		}
	}
	unpacked.Add(1)
	return final, nil
}

// unpackBundle is the folder of the carried emulator bundle, unpacked.
func unpackBundle() (string, error) {
	if carriedBundle == nil {
		return "", errors.New("this build of smsemulator.dev/smsemu carries no emulator bundle (the repository's source: `npm run kits` builds the module that does)")
	}
	return unpackOnce("bundle-"+carriedBundleKey, func(dir string) error { return copyTree(carriedBundle, dir) })
}

// unpackNode is the path of the carried node binary, unpacked with its executable bit set.
func unpackNode() (string, error) {
	if carriedRuntime == nil {
		return "", fmt.Errorf("no runtime module for %s_%s in this build (modules smsemulator.dev/smsemu/node/<goos>_<goarch> exist for the platforms `npm run kits` packs)", runtime.GOOS, runtime.GOARCH)
	}
	folder, err := unpackOnce("node-"+runtime.GOOS+"_"+runtime.GOARCH+"-"+carriedRuntime.version+"-"+carriedRuntime.key, func(dir string) error {
		return gunzipTo(carriedRuntime.gzipped, filepath.Join(dir, carriedRuntime.name), 0o755)
	})
	if err != nil {
		return "", err
	}
	return filepath.Join(folder, carriedRuntime.name), nil
}

func gunzipTo(gzipped []byte, path string, mode os.FileMode) error {
	reader, err := gzip.NewReader(bytes.NewReader(gzipped))
	if err != nil {
		return err
	}
	file, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(file, reader); err != nil {
		file.Close()
		return err
	}
	return file.Close()
}

// copyTree writes every file of tree under dir.
func copyTree(tree fs.FS, dir string) error {
	return fs.WalkDir(tree, ".", func(path string, entry fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		target := filepath.Join(dir, filepath.FromSlash(path))
		if entry.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		content, err := fs.ReadFile(tree, path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, content, 0o644)
	})
}
