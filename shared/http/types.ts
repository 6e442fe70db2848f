import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';

/** API Gateway HTTP API payload format 2.0: what Lambda receives and what `npm start` builds. */
export type HttpEvent = APIGatewayProxyEventV2;
export type HttpResult = APIGatewayProxyStructuredResultV2 & {
  statusCode: number;
  headers?: Record<string, string>;
};
export type LambdaContext = Context;
export type HttpHandler = (event: HttpEvent, context: LambdaContext) => Promise<HttpResult>;
