<?php

declare(strict_types=1);

namespace SmsEmulator\PhpUnit;

/**
 * The one emulator of a test run, found by the kit contract's order: SMS_EMULATOR_URL (a running one), else
 * SMS_EMULATOR_COMMAND (a command that starts one, a relative path resolved against the project root), else a `node`
 * with the Node runtime package of the platform (smsemulator/phpunit-kit-node-<platform>, when the project requires it),
 * else a `node` on PATH, each with the emulator this package carries; never an unpinned npx. A started emulator stops
 * when the run ends, and by itself within a second if the run dies (--parent-pid).
 */
final class Emulator
{
    private static ?self $shared = null;
    /** A failed start, kept so every test of the run reports it at once instead of trying (and announcing) again. */
    private static ?EmulatorException $failed = null;

    /** @param resource|null $process */
    private function __construct(
        public readonly string $origin,
        public readonly Control $control,
        public readonly array $ready,
        private $process = null,
        private readonly ?string $folder = null,
    ) {
    }

    /** The run's emulator, found or started on first use. */
    public static function shared(): self
    {
        if (self::$failed !== null) {
            throw self::$failed;
        }
        if (self::$shared === null) {
            try {
                self::$shared = self::start();
            } catch (EmulatorException $failure) {
                throw self::$failed = $failure;
            }
            register_shutdown_function(static fn () => self::$shared?->stop());
        }
        return self::$shared;
    }

    public static function start(): self
    {
        $env = Contract::get()['resolution']['env'];
        $url = getenv($env['url']) ?: null;
        $token = getenv($env['token']) ?: null;
        $tried = ['url' => 'not set', 'command' => 'not set', 'carried' => 'not installed (require smsemulator/phpunit-kit-node-' . self::platform() . ')', 'pathNode' => 'not found'];
        if ($url !== null) {
            self::announce("SMS_EMULATOR_URL=" . Http::shownUrl($url));
            $control = new Control(rtrim($url, '/'), $token);
            try {
                $health = $control->health();
            } catch (TransportException|ControlException $failure) {
                throw new EmulatorException(Settings::ERROR_PREFIX . "SMS_EMULATOR_URL=" . Http::shownUrl($url) . " does not answer as an sms-emulator: {$failure->getMessage()}");
            }
            if (($health['status'] ?? null) !== 'ok') {
                throw new EmulatorException(Settings::ERROR_PREFIX . "SMS_EMULATOR_URL=" . Http::shownUrl($url) . " is not an sms-emulator: /_emulator/health answered " . json_encode($health));
            }
            return new self(rtrim($url, '/'), $control, ['origin' => rtrim($url, '/')]);
        }
        $command = getenv($env['command']) ?: null;
        if ($command !== null) {
            self::announce("SMS_EMULATOR_COMMAND=$command");
            return self::launch(self::resolveCommand($command), $token);
        }
        $bundle = self::carriedBundle();
        $runtime = self::carriedRuntime();
        if ($bundle !== null && $runtime !== null) {
            self::announce("the carried runtime ($runtime) with the carried emulator");
            return self::launch(escapeshellarg($runtime) . ' ' . escapeshellarg($bundle . '/' . Contract::get()['start']['bundleEntry']), $token);
        }
        $node = self::nodeOnPath($tried['pathNode']);
        if ($bundle !== null && $node !== null) {
            $entry = $bundle . '/' . Contract::get()['start']['bundleEntry'];
            self::announce("node on PATH ($node) with the carried emulator");
            return self::launch(escapeshellarg($node) . ' ' . escapeshellarg($entry), $token);
        }
        if ($bundle === null) {
            $tried['pathNode'] .= '; and this package carries no emulator (resources/emulator is missing: reinstall it)';
        }
        throw new EmulatorException(strtr(Contract::get()['resolution']['notFound'], [
            '{url}' => $tried['url'],
            '{command}' => $tried['command'],
            '{carried}' => $tried['carried'],
            '{pathNode}' => $tried['pathNode'],
        ]));
    }

    /** The order in force, printed once when a run starts, so a log shows which emulator a run used. */
    private static function announce(string $choice): void
    {
        fwrite(STDERR, Settings::ERROR_PREFIX . "emulator from $choice (order: SMS_EMULATOR_URL, SMS_EMULATOR_COMMAND, a carried runtime, node on PATH)\n");
    }

    /** A relative first word is a path from the project root (the folder holding composer.json), wherever the test runs. */
    public static function resolveCommand(string $command, ?string $from = null): string
    {
        $words = preg_split('/\s+/', trim($command)) ?: [];
        $first = $words[0] ?? '';
        if ($first !== '' && !str_starts_with($first, '/') && str_contains($first, '/')) {
            $words[0] = self::projectRoot($from ?? (getcwd() ?: '.')) . '/' . $first;
        }
        // Every word after the first that names an existing relative file (node ../../bin/x.js) is resolved the same way.
        foreach (array_slice($words, 1, null, true) as $index => $word) {
            if (!str_starts_with($word, '/') && str_contains($word, '/') && !str_starts_with($word, '-')) {
                $candidate = self::projectRoot($from ?? (getcwd() ?: '.')) . '/' . $word;
                if (file_exists($candidate)) {
                    $words[$index] = $candidate;
                }
            }
        }
        return implode(' ', $words);
    }

    public static function projectRoot(string $from): string
    {
        for ($folder = realpath($from) ?: $from; ; $folder = dirname($folder)) {
            if (is_file("$folder/composer.json")) {
                return $folder;
            }
            if (dirname($folder) === $folder) {
                return realpath($from) ?: $from;
            }
        }
    }

    private static function carriedBundle(): ?string
    {
        $bundle = __DIR__ . '/../resources/emulator';
        return is_file($bundle . '/' . Contract::get()['start']['bundleEntry']) ? realpath($bundle) : null;
    }

    /** This machine's platform by the names the runtime packages carry (os-maven-plugin's, as decision 0002 says). */
    public static function platform(): string
    {
        $os = match (PHP_OS_FAMILY) {
            'Darwin' => 'osx',
            'Windows' => 'windows',
            default => strtolower(PHP_OS_FAMILY),
        };
        $arch = match (strtolower(php_uname('m'))) {
            'x86_64', 'amd64' => 'x86_64',
            'aarch64', 'arm64' => 'aarch_64',
            default => strtolower(php_uname('m')),
        };
        return "$os-$arch";
    }

    /**
     * The node of the platform's runtime package, installed beside this one by Composer, copied once per version into
     * the user's cache with its executable bit (a package archive does not keep file modes).
     */
    private static function carriedRuntime(): ?string
    {
        $file = PHP_OS_FAMILY === 'Windows' ? 'node.exe' : 'node';
        $packaged = dirname(__DIR__, 2) . '/phpunit-kit-node-' . self::platform() . "/resources/$file";
        if (!is_file($packaged)) {
            return null;
        }
        $cache = (getenv('XDG_CACHE_HOME') ?: (getenv('HOME') ?: sys_get_temp_dir()) . '/.cache') . '/sms-emulator-kits';
        $folder = "$cache/php-node-" . Contract::get()['version'] . '-' . self::platform() . '-' . filesize($packaged);
        $node = "$folder/$file";
        if (!is_executable($node)) {
            if (!is_dir($folder) && !mkdir($folder, 0755, true) && !is_dir($folder)) {
                throw new EmulatorException(Settings::ERROR_PREFIX . "cannot make $folder for the carried Node runtime");
            }
            // Copied under a name of its own, then renamed: a run beside this one never starts a half-written node.
            $partial = "$node." . getmypid();
            copy($packaged, $partial);
            chmod($partial, 0755);
            rename($partial, $node);
        }
        return $node;
    }

    /** A node of at least the contract's minimum version on PATH, or null with what was found instead. */
    private static function nodeOnPath(string &$found): ?string
    {
        foreach (explode(PATH_SEPARATOR, getenv('PATH') ?: '') as $folder) {
            $node = "$folder/node";
            if ($folder === '' || !is_file($node) || !is_executable($node)) {
                continue;
            }
            $version = trim((string) shell_exec(escapeshellarg($node) . ' --version 2>/dev/null'));
            $minimum = Contract::get()['resolution']['minimumNodeVersion'];
            if (version_compare(ltrim($version, 'v'), $minimum, '>=')) {
                return $node;
            }
            $found = "$node is $version, older than $minimum";
            return null;
        }
        return null;
    }

    /**
     * How long a start may take, in milliseconds: SMS_EMULATOR_START_TIMEOUT read with the one duration grammar (`2m`,
     * `120`, `90s`), else the contract's default; a setting that is not a duration fails the run with the contract's
     * text instead of being read as some other length.
     */
    public static function startTimeoutMs(): int
    {
        $text = getenv(Settings::START_TIMEOUT_ENV);
        try {
            return Settings::durationMs(Settings::START_TIMEOUT_ENV, $text === false || $text === '' ? Settings::START_TIMEOUT : $text);
        } catch (\InvalidArgumentException $problem) {
            throw new EmulatorException($problem->getMessage());
        }
    }

    private static function launch(string $command, ?string $token): self
    {
        $timeoutMs = self::startTimeoutMs();
        $folder = sys_get_temp_dir() . '/sms-emulator-php-' . bin2hex(random_bytes(6));
        mkdir($folder, 0700);
        $readyFile = "$folder/ready.json";
        $args = array_map(
            static fn (string $arg) => escapeshellarg(strtr($arg, ['{readyFile}' => $readyFile, '{parentPid}' => (string) getmypid()])),
            Contract::get()['start']['args'],
        );
        // exec: the shell becomes the emulator, so the process this kit holds is the one it stops.
        $process = proc_open('exec ' . $command . ' ' . implode(' ', $args), [0 => ['file', '/dev/null', 'r'], 1 => ['file', "$folder/output.log", 'w'], 2 => ['file', "$folder/output.log", 'w']], $pipes);
        if ($process === false) {
            self::removeFolder($folder);
            throw new EmulatorException(Settings::ERROR_PREFIX . "could not run $command");
        }
        $timeout = $timeoutMs / 1000;
        $deadline = microtime(true) + $timeout;
        while (!is_array($ready = self::readReady($readyFile))) {
            $status = proc_get_status($process);
            if (!$status['running'] || microtime(true) > $deadline) {
                proc_terminate($process);
                $output = (string) @file_get_contents("$folder/output.log");
                self::removeFolder($folder);
                $why = $status['running'] ? "was not ready within {$timeout}s" : "ended with exit code {$status['exitcode']}";
                throw new EmulatorException(Settings::ERROR_PREFIX . "`$command` $why. Its output:\n" . substr($output, -4000));
            }
            usleep(20_000);
        }
        // Nothing is left behind even if the run is killed: the emulator keeps writing to its (now unlinked) log.
        self::removeFolder($folder);
        return new self($ready['origin'], new Control($ready['origin'], $token), $ready, $process);
    }

    /** The ready file's content once it is there whole, else null. */
    private static function readReady(string $readyFile): ?array
    {
        $text = is_file($readyFile) ? file_get_contents($readyFile) : false;
        $ready = $text === false ? null : json_decode($text, true);
        return is_array($ready) && isset($ready['origin']) ? $ready : null;
    }

    /** Stops an emulator this run started (and removes its temporary folder); one found by URL is left running. */
    public function stop(): void
    {
        if ($this->process !== null) {
            proc_terminate($this->process);
            proc_close($this->process);
            $this->process = null;
        }
        if ($this->folder !== null) {
            self::removeFolder($this->folder);
        }
    }

    private static function removeFolder(string $folder): void
    {
        foreach (glob("$folder/*") ?: [] as $file) {
            @unlink($file);
        }
        @rmdir($folder);
    }
}
