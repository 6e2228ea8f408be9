<?php

declare(strict_types=1);

/** The app's own webhook handler for the kit's tests: tests/fixtures/app.php under `php -S` on a free port. */
final class AppServer
{
    /** @var resource */
    private $process;
    public readonly string $url;
    public readonly string $record;

    public function __construct(bool $failFirst = false)
    {
        $socket = stream_socket_server('tcp://127.0.0.1:0');
        $port = (int) substr((string) strrchr((string) stream_socket_get_name($socket, false), ':'), 1);
        fclose($socket);
        $this->record = (string) tempnam(sys_get_temp_dir(), 'sms-app-');
        $env = ['APP_RECORD' => $this->record, 'APP_FAIL_FIRST' => $failFirst ? '1' : ''] + getenv();
        $this->process = proc_open(
            ['php', '-S', "127.0.0.1:$port", __DIR__ . '/fixtures/app.php'],
            [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']],
            $pipes,
            null,
            $env,
        );
        $this->url = "http://127.0.0.1:$port/sms/status";
        for ($i = 0; $i < 250; $i++) {
            $connection = @fsockopen('127.0.0.1', $port, $errno, $error, 0.2);
            if ($connection !== false) {
                fclose($connection);
                return;
            }
            usleep(20_000);
        }
        throw new RuntimeException("the app server on port $port did not start");
    }

    /** @return list<array{path: string, event: string, attempt: int, body: string}> */
    public function received(): array
    {
        $lines = array_filter(explode("\n", (string) file_get_contents($this->record)));
        return array_values(array_map(static fn (string $line) => json_decode($line, true), $lines));
    }

    public function stop(): void
    {
        proc_terminate($this->process);
        proc_close($this->process);
        @unlink($this->record);
    }
}
