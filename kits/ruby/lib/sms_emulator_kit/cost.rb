# frozen_string_literal: true

module SmsEmulatorKit
  # What a text costs, as the emulator's `cost` answers it (the kit counts nothing itself), and the failures of the cost
  # matchers (RSpec) and assertions (Minitest): the phrase, then the emulator's breakdown of the text (each character
  # that forced UCS-2, its position, code point and what was meant) or summary of a world's spend (its top spenders).
  module Cost
    module_function

    # The emulator's explanation of a text, or of a message the kit answered (its `message`).
    # @return [Answers::CostExplanation]
    def explain(subject)
      text = subject.is_a?(String) ? subject : subject.respond_to?(:[]) && subject["message"]
      raise ArgumentError, "#{Settings::ERROR_PREFIX}a cost check takes a text or a message (its text in \"message\")" unless text.is_a?(String)

      Emulator.shared.control.cost({ "text" => text })
    end

    # A budget as given (`where` names it): a whole number of credits from 0, or nil for none; else an ArgumentError, as
    # a negative budget could never be met and a text or a fraction never compared.
    def budget(credits, where)
      return credits if credits.nil? || (credits.is_a?(Integer) && credits >= 0)

      raise ArgumentError, "#{Settings::ERROR_PREFIX}#{where} takes a whole number of credits from 0, not #{credits.inspect}"
    end

    # A count with its noun: `1 credit`, `2 credits`.
    def plural(count, noun) = "#{count} #{noun}#{'s' unless count == 1}"

    # @param cost [Answers::CostExplanation]
    def not_gsm7(cost) = "expected the text to stay GSM-7; it is #{cost.breakdown}"

    # @param cost [Answers::CostExplanation]
    def too_many_segments(cost, segments) = "expected the text to fit #{plural(segments, 'segment')}; it is #{cost.breakdown}"

    # @param spend [Answers::Spend]
    def overspent(spend, credits) = "expected this world to cost at most #{plural(credits, 'credit')}; it #{spend.summary}"
  end
end
