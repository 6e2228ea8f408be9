# frozen_string_literal: true

# Minitest finds this plugin on its own: with a suite budget in force (`SmsEmulatorKit::Minitest.cost_budget = 50`), a
# run whose worlds spent more fails at its end, naming the tests that spent most.
module Minitest
  def self.plugin_sms_emulator_kit_init(options)
    reporter << SmsEmulatorKit::Minitest::CostBudgetReporter.new(options[:io]) if defined?(SmsEmulatorKit::Minitest::CostBudgetReporter)
  end
end
