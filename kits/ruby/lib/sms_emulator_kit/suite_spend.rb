# frozen_string_literal: true

module SmsEmulatorKit
  # What the run's worlds spent, kept while a suite budget is in force (RSpec's `config.sms_cost_budget`, Minitest's
  # `SmsEmulatorKit::Minitest.cost_budget`; with none, no test asks for its spend), and the failure when the run spent
  # more: the tests that spent most, each with its costliest message.
  module SuiteSpend
    # How many of the costliest tests the failure names.
    NAMED = 5

    @spent = {}

    class << self
      # The run's budget in credits; nil (the default): none.
      attr_accessor :budget

      # Keeps what a test's world spent, when a suite budget is in force (called before the world is closed).
      def record(test, world)
        @spent[test] = world.spend unless budget.nil?
      end

      # The failure to report when the run spent more than its budget; nil when it did not, or none is in force.
      # @return [String, nil]
      def over_budget
        credits = @spent.values.sum(&:credits)
        return nil if budget.nil? || credits <= budget

        lines = @spent.sort_by.with_index { |(_, spend), order| [-spend.credits, order] }.first(NAMED).map do |test, spend|
          "\n  - #{test}: #{Cost.plural(spend.credits, 'credit')}#{"; its costliest: #{spend.top.first.line}" unless spend.top.empty?}"
        end
        "#{Settings::ERROR_PREFIX}the suite spent #{Cost.plural(credits, 'credit')}, over its budget of #{Cost.plural(budget, 'credit')}. " \
          "Top spenders:#{lines.join}"
      end
    end
  end
end
