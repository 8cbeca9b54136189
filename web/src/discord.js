// Discord's side of the page: the Embedded App SDK inside Discord's iframe, or its mock in a plain
// browser tab. Discord always opens an Activity with frame_id in the query; without one the page
// plays a made-up member, as Discord's sdk-playground does, so it can be tried (and tested)
// outside Discord: ?user_id= picks who, and two tabs with two ids are two people at one table.

import { DiscordSDK, DiscordSDKMock } from "@discord/embedded-app-sdk";

// Shared by every mock tab that names none: they sit at the same table unless told otherwise.
const MOCK_GUILD = "100000000000000001";
const MOCK_CHANNEL = "100000000000000002";
const MOCK_INSTANCE = "i-mock-1";

/** A made-up member id kept for the tab's life, so a reload stays the same person. */
function tabUserId() {
  // 18 digits, like a real snowflake (a Number cannot hold one exactly, hence digit by digit)
  const made = `9${Array.from(crypto.getRandomValues(new Uint8Array(17)), (byte) => byte % 10).join("")}`;
  try {
    const kept = sessionStorage.getItem("mock_user_id");
    if (kept) return kept;
    sessionStorage.setItem("mock_user_id", made);
  } catch {
    // storage refused (a sandboxed frame): the member lasts until the next reload
  }
  return made;
}

/** { sdk, instanceId }: the SDK to ask for a sign-in code, and the instance to sign in to. */
export function openSdk(clientId, query) {
  if (query.has("frame_id")) {
    const sdk = new DiscordSDK(clientId);
    return { sdk, instanceId: () => sdk.instanceId };
  }
  const userId = query.get("user_id") || tabUserId();
  const sdk = new DiscordSDKMock(
    clientId,
    query.get("guild_id") || MOCK_GUILD,
    query.get("channel_id") || MOCK_CHANNEL,
    null,
  );
  // A code only a test or playground server accepts: Discord's token endpoint refuses it.
  sdk._updateCommandMocks({ authorize: async () => ({ code: `mock:${userId}` }) });
  const instanceId = query.get("instance_id") || MOCK_INSTANCE;
  return { sdk, instanceId: () => instanceId };
}

/**
 * A fresh authorization code. The page never calls `authenticate`: the bot exchanges the code and
 * keeps the access token, and nothing the page does needs one.
 */
export async function authorize(sdk, clientId) {
  const { code } = await sdk.commands.authorize({
    client_id: clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify", "guilds"],
  });
  return code;
}
