<?php

declare(strict_types=1);

use PHPUnit\Framework\TestCase;

/** docs/php.md shows the sample project's files as they are, so its example runs as pasted. */
final class GuideTest extends TestCase
{
    public function testTheGuidesPhpBlocksAreTheSampleProjectsFiles(): void
    {
        preg_match_all('/```php\n(.*?)\n```/s', (string) file_get_contents(__DIR__ . '/../../../docs/php.md'), $blocks);
        $sample = __DIR__ . '/../sample';
        $files = ["$sample/tests/DeliveryNoticeTest.php", "$sample/src/Notifier.php", "$sample/public/webhook.php"];
        self::assertSame(array_map(static fn (string $file) => rtrim((string) file_get_contents($file)), $files), $blocks[1]);
    }
}
