// A reading (preset/players/variants) in words.
import { t } from "./i18n.js";

export function readingName(reading) {
  const [preset, players, ...variants] = reading.split("/");
  return [t("review_preset_" + preset.replace("-", "_") + "_name"), `${t("web_players")} ${players}`,
    ...variants.map((v) => t("variant_" + v.replace(/-/g, "_")))].join(" · ");
}
