/** Each registered protocol's client. */
import type { RemoteProtocol } from "@/core/envs/remote/spec";
import { agentgym } from "./agentgym";
import { agentgymAlfworld } from "./agentgymAlfworld";
import { agentgymWebshop } from "./agentgymWebshop";
import { openenvHttp } from "./openenvHttp";
import { openenvWs } from "./openenvWs";
import type { ProtocolClient } from "./session";

export const PROTOCOL_CLIENTS: Record<RemoteProtocol, ProtocolClient> = {
  "openenv-ws": openenvWs,
  "openenv-http": openenvHttp,
  agentgym,
  "agentgym-webshop": agentgymWebshop,
  "agentgym-alfworld": agentgymAlfworld,
};
