<?php

declare(strict_types=1);

use PHPUnit\Framework\TestCase;

/** docs/php.md shows the sample project's files as they are, and its PHP runs as pasted against this kit. */
final class GuideTest extends TestCase
{
    private const FILES = ['tests/DeliveryNoticeTest.php', 'src/Notifier.php', 'public/webhook.php'];

    /** @return list<string> the guide's php blocks, but those with a `<!-- not run: reason -->` line above */
    private static function blocks(): array
    {
        $guide = (string) file_get_contents(__DIR__ . '/../../../docs/php.md');
        preg_match_all('/^([^\n]*)\n```php\n(.*?)\n```$/ms', $guide, $found, PREG_SET_ORDER);
        $blocks = [];
        foreach ($found as [, $above, $code]) {
            if (!str_starts_with($above, '<!-- not run: ')) {
                $blocks[] = $code;
            }
        }
        return $blocks;
    }

    public function testTheGuidesPhpBlocksAreTheSampleProjectsFiles(): void
    {
        $sample = __DIR__ . '/../sample';
        $files = array_map(static fn (string $file) => rtrim((string) file_get_contents("$sample/$file")), self::FILES);
        self::assertSame($files, self::blocks());
    }

    public function testTheGuidesPhpPassesAsPastedIntoAProjectUsingThisKit(): void
    {
        $project = sys_get_temp_dir() . '/sms-emulator-php-guide-' . bin2hex(random_bytes(4));
        try {
            foreach (array_map(null, self::FILES, self::blocks()) as [$file, $code]) {
                @mkdir(dirname("$project/$file"), 0o777, true);
                file_put_contents("$project/$file", $code . "\n");
                exec('php -l ' . escapeshellarg("$project/$file") . ' 2>&1', $lint, $status);
                self::assertSame(0, $status, implode("\n", $lint));
            }
            // The project's autoload, as Composer would write it: its own Shop\ classes and this kit's.
            file_put_contents("$project/autoload.php", '<?php require ' . var_export(__DIR__ . '/bootstrap.php', true)
                . '; spl_autoload_register(static function (string $class): void { if (str_starts_with($class, '
                . '"Shop\\\\")) { require __DIR__ . "/src/" . substr($class, 5) . ".php"; } });');
            // From this folder, so a relative SMS_EMULATOR_COMMAND still names the emulator.
            $bootstrap = escapeshellarg("$project/autoload.php");
            $test = escapeshellarg("$project/tests/DeliveryNoticeTest.php");
            $phpunit = "phpunit --no-configuration --do-not-cache-result --bootstrap $bootstrap $test";
            exec("$phpunit 2>&1", $output, $status);
        } finally {
            exec('rm -rf ' . escapeshellarg($project));
        }
        self::assertSame(0, $status, implode("\n", $output));
        self::assertMatchesRegularExpression('/^OK \(\d+ tests?/m', implode("\n", $output));
    }
}
