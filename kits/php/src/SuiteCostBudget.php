<?php

declare(strict_types=1);

namespace SmsEmulator\PhpUnit;

use PHPUnit\Runner\AfterLastTestHook;

/**
 * A whole run's credit budget, as a PHPUnit 9.6 extension with the credits as its parameter: when the worlds of the
 * run's SmsWorld tests spent more in all, the run fails at its end naming the tests that spent most, each with its
 * costliest message (SuiteSpend). None by default. In phpunit.xml:
 *
 *     <extensions>
 *       <extension class="SmsEmulator\PhpUnit\SuiteCostBudget">
 *         <arguments><integer>50</integer></arguments>
 *       </extension>
 *     </extensions>
 */
final class SuiteCostBudget implements AfterLastTestHook
{
    public function __construct(int $credits)
    {
        SuiteSpend::enforce(CostBudget::checked($credits, 'the SuiteCostBudget extension'));
    }

    public function executeAfterLastTest(): void
    {
        $failure = SuiteSpend::overBudget();
        if ($failure === null) {
            return;
        }
        // A hook cannot fail the run itself: after PHPUnit has printed its result, the failure and a failing status close it.
        register_shutdown_function(static function () use ($failure): void {
            fwrite(STDERR, "\n$failure\n");
            exit(1);
        });
    }
}
