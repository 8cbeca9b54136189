"""Party card games for Discord: Kabuki, Island of Monster Masks, Death Over the Kingdom."""
