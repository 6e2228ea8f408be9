<?php

declare(strict_types=1);

use PHPUnit\Framework\TestCase;

/**
 * docs/php.md shows the sample project's files as they are, and its PHP runs as pasted against this kit; so does the PHP
 * section of docs/cost-checks.md, with its phpunit.xml.
 */
final class GuideTest extends TestCase
{
    private const FILES = ['tests/DeliveryNoticeTest.php', 'src/Notifier.php', 'public/webhook.php'];

    /**
     * A page's blocks of one language (of one `## ` section, when named), but those with a `<!-- not run: reason -->` line above.
     *
     * @return list<string>
     */
    private static function blocks(string $page, string $language = 'php', ?string $section = null): array
    {
        $text = (string) file_get_contents(__DIR__ . "/../../../docs/$page");
        if ($section !== null) {
            $text = explode("\n## ", explode("\n## $section\n", $text, 2)[1] ?? '', 2)[0];
        }
        preg_match_all('/^([^\n]*)\n```' . $language . '\n(.*?)\n```$/ms', $text, $found, PREG_SET_ORDER);
        $blocks = [];
        foreach ($found as [, $above, $code]) {
            if (!str_starts_with($above, '<!-- not run: ')) {
                $blocks[] = $code;
            }
        }
        return $blocks;
    }

    /**
     * Writes files into a new project whose autoload is as Composer would write it (its own Shop\ classes and this
     * kit's), lints the PHP ones and runs PHPUnit there with `$arguments`; answers its exit status and output.
     *
     * @param array<string, string> $files by path in the project
     * @param list<string> $arguments PHPUnit's, `{project}` standing for the project's folder
     * @return array{int, string}
     */
    private static function runInProject(array $files, array $arguments): array
    {
        $project = sys_get_temp_dir() . '/sms-emulator-php-guide-' . bin2hex(random_bytes(4));
        try {
            $files['vendor/autoload.php'] = '<?php require ' . var_export(__DIR__ . '/bootstrap.php', true)
                . '; spl_autoload_register(static function (string $class): void { if (str_starts_with($class, '
                . '"Shop\\\\")) { require dirname(__DIR__) . "/src/" . substr($class, 5) . ".php"; } });';
            foreach ($files as $file => $code) {
                @mkdir(dirname("$project/$file"), 0o777, true);
                file_put_contents("$project/$file", $code . "\n");
                if (str_ends_with($file, '.php')) {
                    exec('php -l ' . escapeshellarg("$project/$file") . ' 2>&1', $lint, $status);
                    self::assertSame(0, $status, implode("\n", $lint));
                }
            }
            // From this folder, so a relative SMS_EMULATOR_COMMAND still names the emulator.
            $command = implode(' ', array_map(static fn (string $argument) => escapeshellarg(str_replace('{project}', $project, $argument)), $arguments));
            exec("phpunit --do-not-cache-result $command 2>&1", $output, $status);
        } finally {
            exec('rm -rf ' . escapeshellarg($project));
        }
        return [$status, implode("\n", $output)];
    }

    public function testTheGuidesPhpBlocksAreTheSampleProjectsFiles(): void
    {
        $sample = __DIR__ . '/../sample';
        $files = array_map(static fn (string $file) => rtrim((string) file_get_contents("$sample/$file")), self::FILES);
        self::assertSame($files, self::blocks('php.md'));
    }

    public function testTheGuidesPhpPassesAsPastedIntoAProjectUsingThisKit(): void
    {
        [$status, $output] = self::runInProject(array_combine(self::FILES, self::blocks('php.md')), [
            '--no-configuration', '--bootstrap', '{project}/vendor/autoload.php', '{project}/tests/DeliveryNoticeTest.php',
        ]);
        self::assertSame(0, $status, $output);
        self::assertMatchesRegularExpression('/^OK \(\d+ tests?/m', $output);
    }

    public function testTheCostChecksPhpExamplePassesAsPastedWithItsPhpunitXml(): void
    {
        [$test] = self::blocks('cost-checks.md', 'php', 'PHP');
        [$config] = self::blocks('cost-checks.md', 'xml', 'PHP');
        [$status, $output] = self::runInProject(['tests/ParcelNoticeTest.php' => $test, 'phpunit.xml' => $config], ['-c', '{project}/phpunit.xml']);
        self::assertSame(0, $status, $output);
        self::assertMatchesRegularExpression('/^OK \(1 test, /m', $output);
    }
}
