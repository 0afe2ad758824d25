/** The part of the untyped `smpp` package (farhadi/node-smpp 0.5) this project uses. */
declare module "smpp" {
  import type { EventEmitter } from "node:events";
  import type { Server as NetServer, Socket } from "node:net";

  export interface PDU {
    command: string;
    command_status: number;
    sequence_number: number;
    [param: string]: unknown;
    isResponse(): boolean;
    response(options?: Record<string, unknown>): PDU;
  }

  export type ResponseCallback = (pdu: PDU) => void;

  export interface Session extends EventEmitter {
    socket: Socket;
    send(pdu: PDU, responseCallback?: ResponseCallback, sendCallback?: ResponseCallback): boolean;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
    pause(): void;
    resume(): void;
    bind_transceiver(options: Record<string, unknown>, callback?: ResponseCallback): boolean;
    bind_transmitter(options: Record<string, unknown>, callback?: ResponseCallback): boolean;
    submit_sm(options: Record<string, unknown>, callback?: ResponseCallback): boolean;
    deliver_sm(options: Record<string, unknown>, callback?: ResponseCallback): boolean;
    enquire_link(options?: Record<string, unknown> | ResponseCallback, callback?: ResponseCallback): boolean;
    unbind(options?: Record<string, unknown> | ResponseCallback, callback?: ResponseCallback): boolean;
  }

  export interface ConnectOptions {
    url?: string;
    host?: string;
    port?: number;
    auto_enquire_link_period?: number;
    connectTimeout?: number;
  }

  export interface Server extends NetServer {
    sessions: Session[];
  }

  export function connect(options: ConnectOptions, listener?: () => void): Session;
  export function createServer(listener: (session: Session) => void): Server;
  export function createServer(options: Record<string, unknown>, listener: (session: Session) => void): Server;

  export const ESME_ROK: number;
  export const ESME_RBINDFAIL: number;
  export const ESME_RTHROTTLED: number;
  export const ESME_RMSGQFUL: number;
  export const ESME_RSYSERR: number;

  const smpp: {
    connect: typeof connect;
    createServer: typeof createServer;
    ESME_ROK: number;
    ESME_RBINDFAIL: number;
    ESME_RTHROTTLED: number;
    ESME_RMSGQFUL: number;
    ESME_RSYSERR: number;
  };
  export default smpp;
}
